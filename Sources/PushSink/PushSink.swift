import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

/// A local push gateway for labs and tests. It takes `pnm2/send` pushes over
/// HTTP, records them (in memory, and as JSON lines in the output), and
/// answers like the Acrobits gateway, or as its rules say: token gone, an
/// error status, or a late answer. Rules can change while it runs.
public final class PushSink: Service, Sendable {
    /// The largest request body read.
    static let maxBodySize = 1024 * 1024

    let settings: PushSinkSettings
    let logger: Logger
    private let state: Mutex<PushSinkState>

    public init(settings: PushSinkSettings, logger: Logger) {
        self.settings = settings
        self.logger = logger
        state = Mutex(PushSinkState(rules: settings.rules, defaultRule: settings.defaultRule))
    }

    /// Serves until graceful shutdown. Throws when the output cannot be opened
    /// or the address cannot be bound.
    public func run() async throws {
        defer { finish() }
        try openOutput()
        let router = Router()
        PushSinkRoutes(sink: self).register(on: router)
        let app = Application(
            router: router,
            configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "sipwake-push-sink"),
            onServerRunning: { channel in self.markListening(port: channel.localAddress?.port) },
            logger: logger)
        try await withGracefulShutdownHandler {
            try await app.run()
        } onGracefulShutdown: {
            self.state.withLock { $0.stopping = true }
        }
    }

    /// True once graceful shutdown began: a slow answer is sent at once, so
    /// stopping never waits for a `slow:` rule.
    var isStopping: Bool { state.withLock { $0.stopping } }

    /// The port the sink listens on, once it does; nil when it stopped or
    /// could not listen. Waits for ``run()`` to bind its address.
    public var boundPort: Int? {
        get async {
            await withCheckedContinuation { continuation in
                state.withLock { state in
                    switch state.listening {
                    case .waiting(var waiters):
                        waiters.append(continuation)
                        state.listening = .waiting(waiters)
                    case .listening(let port):
                        continuation.resume(returning: port)
                    case .ended:
                        continuation.resume(returning: nil)
                    }
                }
            }
        }
    }

    /// Every request received so far, oldest first.
    public func records() -> [PushSinkRecord] {
        state.withLock { $0.records }
    }

    /// Forgets the records received so far.
    public func clearRecords() {
        state.withLock { $0.records.removeAll() }
    }

    public func setRule(_ rule: PushSinkRule, forToken token: String) {
        state.withLock { $0.rules[token] = rule }
    }

    public func setDefaultRule(_ rule: PushSinkRule) {
        state.withLock { $0.defaultRule = rule }
    }

    /// The rule for `token`, and the rules as text (`default` and per token).
    func rule(forToken token: String) -> PushSinkRule {
        state.withLock { $0.rules[token] ?? $0.defaultRule }
    }

    func rulesDescription() -> (defaultRule: String, tokens: [String: String]) {
        state.withLock { state in
            (state.defaultRule.description, state.rules.mapValues(\.description))
        }
    }

    /// Keeps `record` and writes its JSON line, in arrival order.
    func add(_ record: PushSinkRecord) {
        var line = (try? PushSinkRecord.jsonEncoder().encode(record)) ?? Data()
        line.append(0x0A)
        state.withLock { state in
            state.records.append(record)
            if let output = state.output {
                do {
                    try output.write(contentsOf: line)
                } catch {
                    logger.error("push sink output write failed", metadata: ["error": "\(error)"])
                }
            }
        }
    }

    private func openOutput() throws {
        guard let path = settings.output else { return }
        let handle: FileHandle
        if path == "-" {
            handle = FileHandle.standardOutput
        } else {
            if !FileManager.default.fileExists(atPath: path) {
                guard FileManager.default.createFile(atPath: path, contents: nil) else {
                    throw PushSinkError("cannot create output file \(path)")
                }
            }
            guard let file = FileHandle(forWritingAtPath: path) else {
                throw PushSinkError("cannot open output file \(path)")
            }
            _ = try? file.seekToEnd()
            handle = file
        }
        state.withLock { $0.output = handle }
    }

    private func markListening(port: Int?) {
        state.withLock { state in
            if case .waiting(let waiters) = state.listening {
                for waiter in waiters { waiter.resume(returning: port) }
            }
            state.listening = .listening(port: port)
        }
    }

    private func finish() {
        state.withLock { state in
            if case .waiting(let waiters) = state.listening {
                for waiter in waiters { waiter.resume(returning: nil) }
            }
            state.listening = .ended
            if let output = state.output, output !== FileHandle.standardOutput {
                try? output.close()
            }
            state.output = nil
        }
    }
}
