import ArgumentParser
import Foundation
import Glibc
import Logging
import NIOCore
import PushSink
import ServiceLifecycle

struct PushSinkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push-sink",
        abstract: "Run a local push gateway for labs and tests: it records every push and answers as told.",
        discussion: """
            Rules: ok (200), gone (404 NotRegistered, as for an unregistered token), fail[:STATUS] \
            (default 500), slow:MILLISECONDS (200, late). Change them while it runs with \
            POST /rules {"token": "...", "rule": "gone"}; read what it got with GET /records. See docs/push.md.
            """)

    @Option(help: "Address to listen on, HOST:PORT (port 0 picks a free one).")
    var listen = "127.0.0.1:8090"
    @Option(help: "Send path; POSTs to any path under /pnm2/ are taken too.")
    var path = "/pnm2/send"
    @Option(help: "File to append one JSON line per request to, or - for standard output.")
    var output = "-"
    @Option(name: .customLong("gone"), help: ArgumentHelp("Answer this token like an unregistered one (404).", valueName: "token"))
    var goneTokens: [String] = []
    @Option(name: .customLong("fail"), help: ArgumentHelp("Answer this token with an error status (default 500).", valueName: "token[:status]"))
    var failTokens: [String] = []
    @Option(name: .customLong("slow"), help: ArgumentHelp("Answer this token after a delay.", valueName: "token:ms"))
    var slowTokens: [String] = []
    @Option(name: .customLong("default-rule"), help: ArgumentHelp("Rule for every other token: ok, gone, fail[:STATUS], slow:MS.", valueName: "rule"))
    var defaultRule = "ok"
    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel = "info"

    func validate() throws {
        _ = try settings()
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("invalid --log-level '\(logLevel)': use trace, debug, info, notice, warning, error or critical")
        }
    }

    func settings() throws -> PushSinkSettings {
        let address = try PushSinkArguments.listen(listen)
        var rules: [String: PushSinkRule] = [:]
        for token in goneTokens { rules[try PushSinkArguments.token(token, option: "--gone")] = .gone }
        for text in failTokens {
            let (token, rule) = try PushSinkArguments.fail(text)
            rules[try PushSinkArguments.token(token, option: "--fail")] = rule
        }
        for text in slowTokens {
            let (token, rule) = try PushSinkArguments.slow(text)
            rules[try PushSinkArguments.token(token, option: "--slow")] = rule
        }
        guard !output.isEmpty else { throw ValidationError("invalid --output '': use a file path or -") }
        return PushSinkSettings(
            host: address.host, port: address.port, path: try PushSinkArguments.path(path), output: output,
            rules: rules, defaultRule: try PushSinkArguments.rule(defaultRule, option: "--default-rule"))
    }

    func run() async throws {
        let settings = try settings()
        let level = Logger.Level(rawValue: logLevel) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "sipwake.push-sink")
        let sink = PushSink(settings: settings, logger: logger)
        let group = ServiceGroup(configuration: .init(
            services: [.init(service: sink)], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                do {
                    try await group.run()
                } catch let error as PushSinkError {
                    throw CLIError(error.description)
                } catch let error as IOError {
                    throw CLIError("cannot listen on \(listen): \(String(cString: strerror(error.errnoCode)))")
                } catch {
                    throw CLIError("push sink on \(listen) stopped: \(error)")
                }
            }
            tasks.addTask {
                guard let port = await sink.boundPort else { return }
                let host = settings.host.contains(":") ? "[\(settings.host)]" : settings.host
                FileHandle.standardError.write(Data("push-sink listening on http://\(host):\(port)\(settings.path)\n".utf8))
            }
            try await tasks.waitForAll()
        }
    }
}
