import Foundation
import Hummingbird
import HummingbirdHTTP2
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

/// A local push service for labs and tests. It plays the Acrobits gateway
/// (`pnm2/send`), APNs (`/3/device/TOKEN`, provider JWTs checked), FCM HTTP
/// v1 (`messages:send`, OAuth access tokens checked) and Google's OAuth
/// token endpoint, over plain HTTP or over TLS with HTTP/2. It records every
/// request (in memory, and as JSON lines in the output) and answers like the
/// real service, or as its rules say: token gone, token bad, an error
/// status, or a late answer. Rules can change while it runs.
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

    /// Serves until graceful shutdown. Throws a ``PushSinkError`` when the
    /// output cannot be opened or a key or certificate cannot be read, and
    /// NIO's error when the address cannot be bound.
    public func run() async throws {
        defer { finish() }
        try openOutput()
        var apnsVerifier: PushSinkJWTVerifier?
        if let pem = settings.apns.keyPEM {
            do { apnsVerifier = try await PushSinkJWTVerifier.apns(pem: pem) } catch { throw PushSinkError("APNs key: \(error)") }
        }
        var googleVerifier: PushSinkJWTVerifier?
        if let pem = settings.fcm.keyPEM {
            do { googleVerifier = try await PushSinkJWTVerifier.google(pem: pem) } catch { throw PushSinkError("FCM key: \(error)") }
        }
        let tlsConfiguration = try settings.tls?.serverConfiguration()
        state.withLock { $0.providerTokensToExpire = settings.apns.expireProviderTokens }
        let router = Router()
        PushSinkRoutes(sink: self, apnsVerifier: apnsVerifier, googleVerifier: googleVerifier).register(on: router)
        let configuration = ApplicationConfiguration(
            address: .hostname(settings.host, port: settings.port), serverName: "sipwake-push-sink")
        let onServerRunning: @Sendable (any Channel) async -> Void = { channel in
            self.markListening(port: channel.localAddress?.port)
        }
        if let tlsConfiguration {
            try await serve(Application(router: router, server: try .http2Upgrade(tlsConfiguration: tlsConfiguration),
                                        configuration: configuration, onServerRunning: onServerRunning, logger: logger))
        } else {
            try await serve(Application(router: router, server: .http1(), configuration: configuration,
                                        onServerRunning: onServerRunning, logger: logger))
        }
    }

    /// Runs `app` until graceful shutdown, which also cuts `slow` answers short.
    private func serve(_ app: some ApplicationProtocol) async throws {
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

    /// Waits out a `slow` rule; returns at once for any other rule, or when
    /// graceful shutdown begins.
    func wait(for rule: PushSinkRule) async throws {
        guard case .slow(let milliseconds) = rule else { return }
        let deadline = ContinuousClock.now + .milliseconds(milliseconds)
        while ContinuousClock.now < deadline, !isStopping {
            try await Task.sleep(for: min(.milliseconds(100), deadline - ContinuousClock.now))
        }
    }

    /// Makes an OAuth access token that FCM sends are taken with for `lifetime` seconds.
    func issueAccessToken(lifetime: Int) -> String {
        var random = SystemRandomNumberGenerator()
        let token = "ya29.sink-" + (0..<4).map { _ in
            let text = String(random.next(), radix: 16)
            return String(repeating: "0", count: 16 - text.count) + text
        }.joined()
        let now = Date()
        state.withLock { state in
            state.accessTokens = state.accessTokens.filter { $0.value > now }
            state.accessTokens[token] = now.addingTimeInterval(TimeInterval(lifetime))
        }
        return token
    }

    /// True when the OAuth endpoint issued `token` and it has not expired.
    func acceptsAccessToken(_ token: String) -> Bool {
        let now = Date()
        return state.withLock { $0.accessTokens[token].map { $0 > now } ?? false }
    }

    /// True when `digest` names a JWT refused as expired before.
    func refusedProviderToken(_ digest: String) -> Bool {
        state.withLock { $0.expiredProviderTokens.contains(digest) }
    }

    /// Counts down `--expire-provider-tokens`: true (and the JWT refused from
    /// now on) while requests are still to be refused.
    func expireProviderToken(_ digest: String) -> Bool {
        state.withLock { state in
            guard state.providerTokensToExpire > 0 else { return false }
            state.providerTokensToExpire -= 1
            state.expiredProviderTokens.insert(digest)
            return true
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
