import ArgumentParser
import Foundation
import Logging
import Model
import Ports
import SIPWake

struct PushTestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Send a test push to every device of a user and show what each provider answered.",
        discussion: """
            Uses the same providers, credentials and payloads as a real call. A device is deleted only \
            when its provider says its token is gone. Exits 1 when any push was not delivered.
            """)

    @OptionGroup var options: ConfigOption
    @Argument(help: "The user whose devices to push.") var user: String
    @Option(help: """
        What the push says: incoming (wakes the app, as for a call), missed, answered-elsewhere, or \
        binding-refresh (what RFC 8599 phones get before their registration expires; to the other token, \
        as missed and answered-elsewhere are).
        """)
    var event: PushEventArgument = .incoming
    @Flag(help: "JSON instead of a table (tokens shortened all the same).") var json = false

    func run() async throws {
        let (config, pushApps) = try options.loadWithPushApps()
        guard config.push.enabled else { throw CLIError("push delivery is off: [push] enabled = false") }
        let database = try DatabaseAccess.open(config)
        defer { try? database.close() }
        var logger = Logger(label: "sipwake.push-test")
        // Each result is in the table; the log would only repeat it.
        logger.logLevel = .critical
        // But why a key or service account was refused is not in the table.
        var credentialLogger = Logger(label: "sipwake.push-test")
        credentialLogger.logLevel = .warning
        let run = PushTestRun(config: config, pushApps: pushApps, stores: database.stores, logger: logger,
                              credentialLogger: credentialLogger)
        let outcomes: [PushTestRun.Outcome]
        do {
            outcomes = try await run.run(user: user, event: event.event)
        } catch let error as StorageError {
            throw CLIError(error.description)
        }
        if outcomes.isEmpty {
            print("user \(user.lowercased()) has no device tuples in \(config.database.displayName)")
            throw ExitCode(1)
        }
        if json {
            try JSONOutput.print(outcomes.map(PushTestOutcomeJSON.init))
        } else {
            let rows = outcomes.map { outcome -> [String] in
                [String(outcome.tuple.id), outcome.tuple.selector, outcome.appID ?? "-", outcome.provider ?? "-",
                 outcome.result.name, outcome.result.httpStatus.map(String.init) ?? "-",
                 (outcome.result.detail ?? "") + (outcome.deleted ? " (tuple deleted)" : "")]
            }
            var table = TextTable(headers: ["TUPLE", "SELECTOR", "APP", "PROVIDER", "RESULT", "STATUS", "DETAIL"])
            for row in rows { table.append(row) }
            print(table.render())
        }
        if outcomes.contains(where: { $0.result.kind != .delivered }) { throw ExitCode(1) }
    }
}
