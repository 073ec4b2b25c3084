import Foundation
import Logging
import Registrar
import SIPCore
import Storage

/// The registrar (RFC 3261 §10.3) as seen from the SIP loop: it checks the
/// domain, extensions and credentials of a REGISTER, runs the pure rules on
/// the in-memory location table, has the change made durable by the group
/// committer, and only then answers 200 OK with every current binding.
///
/// Owned by `SIPServer`, used on the SIP loop only.
final class RegistrarHandler {
    /// Option tags this registrar understands in Require (RFC 3261 §10.3 step 2).
    static let supportedExtensions: Set<String> = ["path", "outbound"]

    private(set) var table = LocationTable()
    private var credentials = CredentialCache()
    private let settings: RegistrarSettings
    private let authenticator: DigestAuthenticator
    private let writer: BindingWriter
    private let directory: UserDirectory
    private let logger: Logger
    private let metrics = RegistrarMetrics()
    private let clock: @Sendable () -> Date
    /// Runs a closure back on the SIP loop, inside the owning actor.
    private let resume: @Sendable (@escaping @Sendable (RegistrarHandler) -> Void) -> Void

    /// Told of every binding change as soon as the registrar accepts it (the
    /// forking proxy forks to devices that register during a call), with the
    /// REGISTER that caused it, nil for expiry.
    var onBindingsChanged: (([BindingChange], IncomingRequest?) -> Void)?

    private var pending: [UInt64: PendingRegister] = [:]
    private var nextToken: UInt64 = 1
    /// How many bindings use each stream connection.
    private var connectionUse: [UInt64: Int] = [:]
    /// Names looked up and not found since the users table last changed: a
    /// flood of REGISTERs with made-up names costs one lookup per name.
    private var unknownUsers: Set<String> = []
    /// Bindings whose REGISTER awaits a user lookup, keyed by username.
    private var awaitingUser: [String: [UInt64]] = [:]

    private struct PendingRegister {
        var request: IncomingRequest
        var aor: String
        var bindings: [Binding]
        var changes: [BindingChange]
        var wantsOutbound: Bool
        var started: ContinuousClock.Instant
    }

    init(settings: RegistrarSettings, writer: BindingWriter, directory: UserDirectory, logger: Logger,
         clock: @escaping @Sendable () -> Date,
         resume: @escaping @Sendable (@escaping @Sendable (RegistrarHandler) -> Void) -> Void) {
        self.settings = settings
        self.writer = writer
        self.directory = directory
        self.logger = logger
        self.clock = clock
        self.resume = resume
        self.authenticator = DigestAuthenticator(
            realm: settings.realm, algorithms: settings.algorithms,
            nonces: NonceIssuer(secret: settings.nonceSecret, lifetime: TimeInterval(settings.nonceLifetime),
                                realm: settings.realm))
    }

    /// True while a binding uses the connection, so it must stay open.
    func isConnectionInUse(_ id: UInt64) -> Bool { connectionUse[id, default: 0] > 0 }

    private func track(_ changes: [BindingChange]) {
        func add(_ binding: Binding, _ delta: Int) {
            guard let id = binding.source.connectionID else { return }
            let count = connectionUse[id, default: 0] + delta
            connectionUse[id] = count > 0 ? count : nil
        }
        for change in changes {
            switch change {
            case .added(let b): add(b, 1)
            case .refreshed(let old, let new): add(old, -1); add(new, 1)
            case .removed(let b, _): add(b, -1)
            }
        }
    }

    // MARK: State from the database

    func load(bindings: [Binding], users: [UserRecord], usersVersion: Int64) {
        table.load(bindings)
        credentials.replace(with: users, version: usersVersion)
        metrics.bindings.record(table.count)
    }

    var usersVersion: Int64 { credentials.version }

    func replaceUsers(_ users: [UserRecord], version: Int64) {
        credentials.replace(with: users, version: version)
        unknownUsers.removeAll()
    }

    // MARK: REGISTER

    func handle(_ request: IncomingRequest) {
        let message = request.message
        guard let requestURI = message.requestURI, settings.serves(requestURI.host) else {
            reject(request, 403, "Domain Not Served")
            return
        }
        let unsupported = message.require.filter { !Self.supportedExtensions.contains($0.lowercased()) }
        if !unsupported.isEmpty {
            metrics.rejected.increment()
            request.reply(420, "Bad Extension",
                          tags: SofiaTagList().header("Unsupported", unsupported.joined(separator: ", ")))
            return
        }
        guard let to = message.toURI, let user = to.user, !user.isEmpty else {
            reject(request, 400, "To Has No User")
            return
        }
        guard settings.serves(to.host) else {
            reject(request, 404, "Not Found")
            return
        }
        let aor = user.lowercased()

        if settings.authEnabled && !settings.isTrusted(request.source.host) {
            let credentialsParameters = message.digestAuthorizations
                .first { ($0["realm"] ?? "") == settings.realm } ?? message.digestAuthorizations.first
            var digest: DigestCredentials?
            if let parameters = credentialsParameters {
                guard let parsed = DigestCredentials(parameters: parameters) else {
                    reject(request, 400, "Bad Authorization")
                    return
                }
                digest = parsed
                if !credentials.contains(parsed.username) && !unknownUsers.contains(parsed.username.lowercased()) {
                    // Perhaps added by the CLI since the last refresh: look it up
                    // off the loop, then decide.
                    awaitUser(parsed.username, request: request)
                    return
                }
            }
            guard authorize(request, digest: digest, aor: aor) else { return }
        }
        register(request, aor: aor)
    }

    /// Checks digest credentials; answers the request and returns false when
    /// it may not go on.
    private func authorize(_ request: IncomingRequest, digest: DigestCredentials?, aor: String) -> Bool {
        let verdict = authenticator.verify(
            method: "REGISTER", credentials: digest, expectedUser: aor, now: clock()
        ) { [credentials] username, algorithm in
            credentials.ha1(username: username, algorithm: algorithm)
        }
        switch verdict {
        case .authenticated:
            return true
        case .challenge(let challenges):
            metrics.challenged.increment()
            logger.debug("register challenged", metadata: ["aor": "\(aor)", "source": "\(request.source.host)"])
            let tags = SofiaTagList()
            for challenge in challenges { tags.header("WWW-Authenticate", challenge.headerValue) }
            request.reply(401, "Unauthorized", tags: tags)
        case .forbidden(let reason):
            metrics.forbidden.increment()
            logger.notice("register forbidden", metadata: [
                "aor": "\(aor)", "source": "\(request.source.host)", "reason": "\(reason)"])
            request.reply(403, "Forbidden")
        case .badRequest(let reason):
            metrics.rejected.increment()
            request.reply(400, reason)
        }
        return false
    }

    // MARK: Requests through the proxy

    /// The user record of a local user, when it exists.
    func user(_ name: String) -> UserRecord? { credentials.users[name.lowercased()] }

    /// The current bindings of an AOR.
    func bindings(of aor: String) -> [Binding] { table.bindings(of: aor, now: clock()) }

    /// Digest check of a request a phone sends through the proxy, such as an
    /// INVITE (RFC 3261 §22.3): answers 407 with Proxy-Authenticate when it
    /// has no or stale credentials, 403 when they are another user's than the
    /// From. Returns the authenticated user, or nil once it has answered.
    func authenticateCaller(_ request: IncomingRequest) -> String? {
        let message = request.message
        let parameters = message.digestProxyAuthorizations
            .first { ($0["realm"] ?? "") == settings.realm } ?? message.digestProxyAuthorizations.first
        var digest: DigestCredentials?
        if let parameters {
            guard let parsed = DigestCredentials(parameters: parameters) else {
                reject(request, 400, "Bad Proxy-Authorization")
                return nil
            }
            digest = parsed
        }
        let verdict = authenticator.verify(
            method: message.method ?? "INVITE", credentials: digest,
            expectedUser: message.fromURI?.user?.lowercased(), now: clock()
        ) { [credentials] username, algorithm in
            credentials.ha1(username: username, algorithm: algorithm)
        }
        switch verdict {
        case .authenticated:
            return digest?.username.lowercased()
        case .challenge(let challenges):
            let tags = SofiaTagList()
            for challenge in challenges { tags.header("Proxy-Authenticate", challenge.headerValue) }
            request.reply(407, "Proxy Authentication Required", tags: tags)
        case .forbidden(let reason):
            logger.notice("call forbidden", metadata: ["source": "\(request.source.host)", "reason": "\(reason)"])
            request.reply(403, "Forbidden")
        case .badRequest(let reason):
            request.reply(400, reason)
        }
        return nil
    }

    private func awaitUser(_ username: String, request: IncomingRequest) {
        let name = username.lowercased()
        let token = park(request)
        let first = awaitingUser[name] == nil
        awaitingUser[name, default: []].append(token)
        guard first else { return }
        let directory = self.directory
        let resume = self.resume
        Task {
            let record = await directory.find(name)
            resume { handler in handler.userLoaded(name, record: record) }
        }
    }

    private func userLoaded(_ name: String, record: UserRecord?) {
        if let record {
            credentials.insert(record)
        } else if unknownUsers.count < 100_000 {
            unknownUsers.insert(name)
        }
        for token in awaitingUser.removeValue(forKey: name) ?? [] {
            guard let parked = pending.removeValue(forKey: token) else { continue }
            let request = parked.request
            // Unknown users fall through to the challenge, like a wrong password.
            handleAfterLookup(request)
        }
    }

    private func handleAfterLookup(_ request: IncomingRequest) {
        let message = request.message
        guard let user = message.toURI?.user else { return reject(request, 400, "To Has No User") }
        let aor = user.lowercased()
        let parameters = message.digestAuthorizations
            .first { ($0["realm"] ?? "") == settings.realm } ?? message.digestAuthorizations.first
        let digest = parameters.flatMap { DigestCredentials(parameters: $0) }
        guard authorize(request, digest: digest, aor: aor) else { return }
        register(request, aor: aor)
    }

    private func register(_ request: IncomingRequest, aor: String) {
        let registerRequest: RegisterRequest
        switch RegisterRequestReader.read(request.message, aor: aor, source: request.source) {
        case .success(let r): registerRequest = r
        case .failure(let rejection): return reject(request, rejection.status, rejection.phrase)
        }
        let now = clock()
        switch table.register(registerRequest, policy: settings.policy, now: now) {
        case .rejected(let status, let reason, let minExpires):
            metrics.rejected.increment()
            let tags = SofiaTagList()
            if let minExpires { tags.header("Min-Expires", String(minExpires)) }
            request.reply(status, reason, tags: tags)
        case .accepted(let changes, let bindings):
            track(changes)
            // A device registering during a call gets its INVITE now, while
            // the change is committed: the phone waits only 3 to 5 seconds.
            if !changes.isEmpty { onBindingsChanged?(changes, request) }
            let wantsOutbound = registerRequest.contacts.contains { $0.instanceID != nil && $0.regID != nil }
                && request.message.supported.contains { $0.lowercased() == "outbound" }
            if changes.isEmpty {
                metrics.accepted.increment()
                replyOK(request, bindings: bindings, wantsOutbound: wantsOutbound, now: now)
                return
            }
            metrics.bindings.record(table.count)
            let token = park(request)
            pending[token]?.aor = aor
            pending[token]?.bindings = bindings
            pending[token]?.changes = changes
            pending[token]?.wantsOutbound = wantsOutbound
            let resume = self.resume
            writer.submit(changes) { result in
                let failure = (try? result.get()) == nil ? "\(result)" : nil
                resume { handler in handler.committed(token, failure: failure) }
            }
        }
    }

    private func park(_ request: IncomingRequest) -> UInt64 {
        let token = nextToken
        nextToken += 1
        pending[token] = PendingRegister(request: request, aor: "", bindings: [], changes: [],
                                         wantsOutbound: false, started: .now)
        return token
    }

    /// The binding change is on disk (or failed to get there).
    private func committed(_ token: UInt64, failure: String?) {
        guard let parked = pending.removeValue(forKey: token) else { return }
        metrics.commitLatency.record(duration: ContinuousClock.now - parked.started)
        if let failure {
            // Undo in memory what could not be made durable, and say so.
            let inverse = Self.inverse(of: parked.changes)
            table.apply(inverse)
            track(inverse)
            metrics.persistFailed.increment()
            logger.error("binding not persisted", metadata: ["aor": "\(parked.aor)", "error": "\(failure)"])
            parked.request.reply(500, "Binding Not Stored", tags: SofiaTagList().header("Retry-After", "5"))
            return
        }
        metrics.accepted.increment()
        logger.debug("register accepted", metadata: [
            "aor": "\(parked.aor)", "bindings": "\(parked.bindings.count)",
            "source": "\(parked.request.source.transport):\(parked.request.source.host):\(parked.request.source.port)"])
        replyOK(parked.request, bindings: parked.bindings, wantsOutbound: parked.wantsOutbound, now: clock())
    }

    private func replyOK(_ request: IncomingRequest, bindings: [Binding], wantsOutbound: Bool, now: Date) {
        let tags = SofiaTagList()
        if !bindings.isEmpty {
            tags.contact(bindings.map { Self.contactValue($0, now: now) }.joined(separator: ", "))
        }
        for path in request.message.path { tags.header("Path", path) }
        tags.header("Supported", "path, outbound")
        if wantsOutbound { tags.header("Require", "outbound") }
        tags.header("Date", Self.httpDate(now))
        request.reply(200, "OK", tags: tags)
    }

    private func reject(_ request: IncomingRequest, _ status: Int, _ phrase: String) {
        metrics.rejected.increment()
        logger.debug("register rejected", metadata: ["status": "\(status)", "reason": "\(phrase)",
                                                     "source": "\(request.source.host)"])
        request.reply(status, phrase)
    }

    // MARK: Expiry

    /// Removes expired bindings and persists the removals.
    func expire() {
        let changes = table.expire(now: clock())
        guard !changes.isEmpty else { return }
        track(changes)
        onBindingsChanged?(changes, nil)
        metrics.expired.increment(by: changes.count)
        metrics.bindings.record(table.count)
        let logger = self.logger
        logger.debug("bindings expired", metadata: ["count": "\(changes.count)"])
        writer.submit(changes) { result in
            if case .failure(let error) = result {
                logger.error("expired bindings not removed from disk", metadata: ["error": "\(error)"])
            }
        }
    }

    // MARK: Helpers

    static func contactValue(_ binding: Binding, now: Date) -> String {
        var value = "<\(binding.contact)>;expires=\(binding.remainingSeconds(at: now))"
        if let q = binding.q { value += ";q=\(formatQ(q))" }
        if let instance = binding.instanceID { value += ";+sip.instance=\"\(instance)\"" }
        if let regID = binding.regID { value += ";reg-id=\(regID)" }
        return value
    }

    static func formatQ(_ q: Int) -> String {
        if q >= 1000 { return "1" }
        var fraction = String(q)
        while fraction.count < 3 { fraction = "0" + fraction }
        while fraction.hasSuffix("0") && fraction.count > 1 { fraction.removeLast() }
        return "0.\(fraction)"
    }

    static func inverse(of changes: [BindingChange]) -> [BindingChange] {
        changes.reversed().map { change in
            switch change {
            case .added(let b): return .removed(b, reason: .unregistered)
            case .refreshed(let old, let new): return .refreshed(old: new, new: old)
            case .removed(let b, _): return .added(b)
            }
        }
    }

    /// RFC 1123 date for the Date header (RFC 3261 §20.17).
    static func httpDate(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        var buffer = [CChar](repeating: 0, count: 64)
        let length = strftime(&buffer, buffer.count, "%a, %d %b %Y %H:%M:%S GMT", &parts)
        return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
