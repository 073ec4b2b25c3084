import Config
import Foundation
import SIPWake

/// One page of a `list` command (`calls list`, `tuples list`): the table,
/// then where the page sits among all the rows, and how to see more.
enum ListPage {
    static func validate(limit: Int, offset: Int) throws {
        guard limit >= 0 else { throw CLIError("invalid --limit \(limit): must not be negative") }
        guard offset >= 0 else { throw CLIError("invalid --offset \(offset): must not be negative") }
    }

    /// Says on stderr, after a list that came out empty, which database and
    /// config it came from: an empty list from the wrong file looks like an
    /// empty list from the right one. stdout (the `--json` array) stays clean.
    static func noteEmpty(_ noun: String, options: ConfigOption, config: SipwakeConfig) {
        let file = (try? options.absolutePath()) ?? "?"
        FileHandle.standardError.write(Data("no \(noun) in database \(config.database.displayName) (config \(file))\n".utf8))
    }

    /// `noun` is the plural ("calls"); `counted` says a number of them ("1 call").
    static func print(headers: [String], rows: [[String]], total: Int, offset: Int, noun: String,
                      counted: (Int) -> String) {
        var table = TextTable(headers: headers)
        for row in rows { table.append(row) }
        Swift.print(table.render())
        if rows.count == total {
            Swift.print(counted(total))
        } else if rows.isEmpty {
            Swift.print("no \(noun) at offset \(offset) of \(counted(total))")
        } else {
            Swift.print("\(offset + 1)-\(offset + rows.count) of \(counted(total)) (--offset, --limit for more)")
        }
    }
}
