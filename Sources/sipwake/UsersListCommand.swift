import ArgumentParser
import Foundation
import Model
import Ports
import SIPWake

struct UsersListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List users.")

    @OptionGroup var options: ConfigOption
    @Flag(help: "JSON instead of a table.") var json = false

    func run() throws {
        let config = try options.load()
        let database = try DatabaseAccess.open(config)
        defer { try? database.close() }
        let users = try database.stores.users.list()
        if users.isEmpty { ListPage.noteEmpty("users", options: options, config: config) }
        if json {
            try JSONOutput.print(users.map(UserJSON.init))
            return
        }
        var table = TextTable(headers: ["USER", "REALM", "WAKEUP-HOLD", "CREATED"])
        for u in users {
            table.append([u.username, u.realm, u.wakeupHold ? "on" : "off", JSONOutput.timestamp(u.createdAt)])
        }
        print(table.render())
        print("\(users.count) user\(users.count == 1 ? "" : "s")")
    }
}
