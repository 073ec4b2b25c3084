import Foundation
import ArgumentParser
import Model
import Ports
import SIPWake

struct CallsListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List call records, newest first.")

    @OptionGroup var options: ConfigOption
    @Option(help: "Only calls to this user.") var user: String?
    @Option(help: "Only calls that ended so: \(CallOutcome.allCases.map(\.rawValue).joined(separator: ", ")).")
    var outcome: String?
    @Option(help: "At most this many calls.") var limit = 50
    @Option(help: "Skip this many calls first (paging).") var offset = 0
    @Flag(help: "JSON instead of a table (every record in full).") var json = false
    @Flag(help: ArgumentHelp(
        "Calls in progress now, from the running server (its admin API: [http] listen and admin_token).",
        discussion: "Takes --user, --limit and --json; --outcome and --offset are for records."))
    var live = false

    func run() throws {
        try ListPage.validate(limit: limit, offset: offset)
        if live {
            try listLive()
            return
        }
        let filter = try outcome.map(CallsOutcomeArgument.parse)
        let config = try options.load()
        let database = try DatabaseAccess.open(config)
        defer { try? database.close() }
        let store = database.stores.callRecords
        let (calls, total) = try CLIStorage.run {
            (try store.list(callee: user, outcome: filter, limit: limit, offset: offset),
             try store.count(callee: user, outcome: filter))
        }
        if total == 0 {
            let calls = (outcome.map { "\($0) calls" } ?? "calls") + (user.map { " to \($0)" } ?? "")
            ListPage.noteEmpty(calls, options: options, config: config)
        }
        if json {
            try JSONOutput.print(calls.map(CallRecordJSON.init))
            return
        }
        ListPage.print(headers: CallsOutput.listHeaders, rows: calls.map(CallsOutput.listRow), total: total,
                       offset: offset, noun: "calls", counted: CallsOutput.plural)
    }

    /// `--live`: asks the running server, whatever the database holds.
    private func listLive() throws {
        if outcome != nil { throw ValidationError("--outcome is for call records: calls in progress have none yet") }
        if offset != 0 { throw ValidationError("--offset is for call records: --live lists every call in progress") }
        let config = try options.load()
        let client = try AdminAPIClient(config: config, what: "calls in progress")
        let body = try client.get("live-calls")
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
              var items = object["items"] as? [[String: Any]],
              var calls = try? JSONDecoder().decode(LiveCallsPage.self, from: body).items else {
            throw CLIError("the server at \(client.baseURL) answered something that is not a list of calls")
        }
        if let user {
            let wanted = user.lowercased()
            let keep = calls.indices.filter { calls[$0].callee.lowercased() == wanted }
            items = keep.map { items[$0] }
            calls = keep.map { calls[$0] }
        }
        let total = calls.count
        items = Array(items.prefix(limit))
        calls = Array(calls.prefix(limit))
        if json {
            let data = try JSONSerialization.data(withJSONObject: items,
                                                  options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            print(String(decoding: data, as: UTF8.self))
            return
        }
        let times = ISO8601DateFormatter()
        times.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let now = Date()
        var table = TextTable(headers: LiveCallJSON.headers)
        for call in calls { table.append(call.row(now: now, times: times)) }
        print(table.render())
        let counted = total == 1 ? "1 call in progress" : "\(total) calls in progress"
        print(calls.count == total ? counted : "the first \(calls.count) of \(counted) (--limit for more)")
    }
}
