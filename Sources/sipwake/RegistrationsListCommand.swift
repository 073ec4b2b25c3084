import Model
import ArgumentParser
import Foundation
import Ports
import Registrar
import SIPWake

struct RegistrationsListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List current bindings, as saved by the running server.")

    @OptionGroup var options: ConfigOption
    @Option(help: "Only this user's bindings.") var user: String?
    @Flag(help: "JSON instead of a table.") var json = false

    func run() throws {
        let config = try options.load()
        let database = try DatabaseAccess.open(config)
        defer { try? database.close() }
        let now = Date()
        let bindings = try database.stores.bindings.list(aor: user?.lowercased())
            .filter { $0.expiresAt > now }
        if bindings.isEmpty {
            ListPage.noteEmpty(user.map { "bindings of \($0.lowercased())" } ?? "bindings", options: options, config: config)
        }
        if json {
            try JSONOutput.print(bindings.map { BindingJSON($0, now: now) })
            return
        }
        var table = TextTable(headers: ["AOR", "CONTACT", "EXPIRES", "SOURCE", "INSTANCE", "USER-AGENT"])
        for b in bindings {
            table.append([b.aor, b.contact, "\(b.remainingSeconds(at: now))s",
                          "\(b.source.transport.rawValue):\(b.source.host):\(b.source.port)",
                          b.instanceID ?? "-", b.userAgent ?? "-"])
        }
        print(table.render())
        print("\(bindings.count) binding\(bindings.count == 1 ? "" : "s")")
    }
}
