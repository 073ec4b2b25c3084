import Foundation
import Logging
import Metrics
import Model
import Ports
import Registrar
import SIPCore

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
    private let settings: RegistrarSettings
    private let authenticator: SIPAuthenticator
    private let writer: any BindingJournal
    private let logger: Logger
    private let metrics: RegistrarMetrics
    private let clock: @Sendable () -> Date
    /// Runs a closure back on the SIP loop, inside the owning actor.
    private let resume: @Sendable (@escaping @Sendable (RegistrarHandler) -> Void) -> Void

    /// Told of every binding change as soon as the registrar accepts it (the
    /// forking proxy forks to devices that register during a call), with the
    /// REGISTER that caused it, nil for expiry.
    var onBindingsChanged: (([BindingChange], IncomingRequest?) -> Void)?
    /// Binding changes other nodes committed, once applied to the table.
    var onRemoteBindingsChanged: (([BindingChange]) -> Void)?
    /// RFC 8599: the push targets REGISTERs name, `555` for unknown services,
    /// binding-refresh pushes. Every `pn-provider` is answered 555 without it.
    var pns: PNSRegistrations?

    private var pending: [UInt64: PendingRegister] = [:]
    /// REGISTERs have no transactions: this recognises their retransmissions.
    private var answers: RegisterAnswers
    private var nextToken: UInt64 = 1
    /// Failed reads of the deletion feed, told once a minute with their count.
    private var deletionFeedFailures = ThrottledCount(interval: 60)
    /// How many bindings use each stream connection.
    private var connectionUse: [UInt64: Int] = [:]

    private struct PendingRegister {
        var request: IncomingRequest
        /// Names the request in `answers`.
        var key: RegisterTransactionID
        var aor: String
        var bindings: [Binding]
        var changes: [BindingChange]
        var wantsOutbound: Bool
        var started: ContinuousClock.Instant
        var pnsWork: [PNSWork] = []
    }

    init(settings: RegistrarSettings, authenticator: SIPAuthenticator, writer: any BindingJournal, logger: Logger,
         metrics: any MetricsFactory, clock: @escaping @Sendable () -> Date,
         resume: @escaping @Sendable (@escaping @Sendable (RegistrarHandler) -> Void) -> Void) {
        self.settings = settings
        self.authenticator = authenticator
        self.writer = writer
        self.logger = logger
        let registrarMetrics = RegistrarMetrics(factory: metrics)
        self.metrics = registrarMetrics
        answers = RegisterAnswers(maxEntries: settings.keptAnswersMaxEntries, maxBytes: settings.keptAnswersMaxBytes,
                                  metrics: registrarMetrics)
        self.clock = clock
        self.resume = resume
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

    func load(bindings: [Binding]) {
        table.load(bindings)
        metrics.bindings.record(table.count)
    }

    // MARK: REGISTER

    /// True when `request` retransmits a REGISTER still being handled or
    /// answered lately: it was answered again, or dropped (`RegisterAnswers`).
    func absorbRetransmission(_ request: IncomingRequest) -> Bool {
        answers.absorb(request, now: clock())
    }

    func handle(_ request: IncomingRequest) {
        let message = request.message
        // Never a transaction: every answer goes out statelessly, and the
        // answers after authentication are kept for the retransmissions.
        request.keepStateless()
        guard let requestURI = message.requestURI, settings.serves(requestURI.host) else {
            reject(request, 403, "Domain Not Served")
            return
        }
        let unsupported = message.require.filter { !Self.supportedExtensions.contains($0.lowercased()) }
        if !unsupported.isEmpty {
            metrics.rejected.increment()
            // Before authentication: answered once, statelessly.
            request.replyStateless(420, "Bad Extension",
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

        let auth = authenticator.check(request, kind: .registrar, expectedUser: aor) { [weak self] in
            self?.handle(request)
        }
        guard auth != .handled else { return }
        guard checkPath(request) else { return }
        register(request, aor: aor)
    }

    /// Path (RFC 3327) is honoured only from a configured edge proxy, and
    /// only when the phone said it supports it: anyone else could make
    /// sipwake send every call for that user to a host of their choosing.
    /// Answers the request and returns false when it may not go on.
    private func checkPath(_ request: IncomingRequest) -> Bool {
        let message = request.message
        guard !message.path.isEmpty else { return true }
        guard settings.isEdgeProxy(request.source.host) else {
            metrics.rejected.increment()
            logger.warning("path refused from a source that is not an edge proxy", metadata: [
                "client.address": "\(request.source.host)", "sip.path": "\(message.path.joined(separator: ","))"])
            request.replyStateless(403, "Path Not Accepted From This Source")
            return false
        }
        guard message.supported.contains(where: { $0.lowercased() == "path" }) else {
            metrics.rejected.increment()
            request.replyStateless(421, "Extension Required", tags: SofiaTagList().header("Require", "path"))
            return false
        }
        return true
    }

    // MARK: Requests through the proxy

    /// The current bindings of an AOR.
    func bindings(of aor: String) -> [Binding] { table.bindings(of: aor, now: clock()) }

    private func register(_ request: IncomingRequest, aor: String) {
        let key = RegisterTransactionID(request)
        var registerRequest: RegisterRequest
        switch RegisterRequestReader.read(request.message, aor: aor, source: request.source) {
        case .success(let r): registerRequest = r
        case .failure(let rejection): return reject(request, rejection.status, rejection.phrase, key: key)
        }
        let now = clock()
        var pnsWork: [PNSWork] = []
        if let pns {
            switch pns.check(registerRequest, current: table.bindings(of: aor, now: now), policy: settings.policy, now: now) {
            case .reject(let reason):
                pns.refused(reason, aor: aor)
                return rejectUnsupportedPush(request, key: key, featureCaps: pns.unsupportedFeatureCaps)
            case .invalid(let reason):
                return reject(request, 400, reason, key: key)
            case .accept(let checked, let work):
                registerRequest = checked
                pnsWork = work
            }
        } else if registerRequest.contacts.contains(where: { $0.push != nil }) {
            return rejectUnsupportedPush(request, key: key, featureCaps: nil)
        }
        switch table.register(registerRequest, policy: settings.policy, now: now) {
        case .rejected(let status, let reason, let minExpires):
            metrics.rejected.increment()
            answer(request, key: key, status, reason, headers: minExpires.map { [("Min-Expires", String($0))] } ?? [])
        case .accepted(let changes, let bindings):
            track(changes)
            // A device registering during a call gets its INVITE now, while
            // the change is committed: the phone waits only 3 to 5 seconds.
            if !changes.isEmpty { onBindingsChanged?(changes, request) }
            let wantsOutbound = registerRequest.contacts.contains { $0.instanceID != nil && $0.regID != nil }
                && request.message.supported.contains { $0.lowercased() == "outbound" }
            if changes.isEmpty && pnsWork.isEmpty {
                metrics.accepted.increment()
                replyOK(request, key: key, bindings: bindings, wantsOutbound: wantsOutbound, now: now)
                return
            }
            metrics.bindings.record(table.count)
            // Answered in `committed`, once the change is on disk; until then
            // its retransmissions are dropped (`RegisterAnswers`).
            let token = park(PendingRegister(request: request, key: key, aor: aor, bindings: bindings, changes: changes,
                                             wantsOutbound: wantsOutbound, started: .now, pnsWork: pnsWork))
            if changes.isEmpty { return committed(token, failure: nil) }
            let resume = self.resume
            writer.submit(changes) { result in
                let failure = (try? result.get()) == nil ? "\(result)" : nil
                resume { handler in handler.committed(token, failure: failure) }
            }
        }
    }

    /// Keeps `register` until its commit (and push-target write) comes back;
    /// every way back answers it (`answer`), which ends it in `answers`.
    private func park(_ register: PendingRegister) -> UInt64 {
        let token = nextToken
        nextToken += 1
        pending[token] = register
        answers.begin(register.key, now: clock())
        return token
    }

    /// The binding change is on disk (or failed to get there).
    private func committed(_ token: UInt64, failure: String?) {
        guard let parked = pending.removeValue(forKey: token) else { return }
        if !parked.changes.isEmpty { metrics.commitLatency.record(duration: ContinuousClock.now - parked.started) }
        if let failure {
            // Undo in memory what could not be made durable, and say so.
            let inverse = Self.inverse(of: parked.changes)
            table.apply(inverse)
            track(inverse)
            metrics.persistFailed.increment()
            logger.warning("binding not persisted", metadata: [
                "sip.aor": "\(parked.aor)", "sip.call_id": "\(parked.request.message.callID ?? "")", "error": "\(failure)"])
            answer(parked.request, key: parked.key, 500, "Binding Not Stored", headers: [("Retry-After", "5")])
            return
        }
        // An evicted binding's push target goes with it.
        pns?.bindingsChanged(parked.changes)
        if let pns, !parked.pnsWork.isEmpty {
            // The push targets are stored next; the 200 OK waits for them.
            pending[token] = parked
            let resume = self.resume
            pns.store(aor: parked.aor, work: parked.pnsWork, now: clock()) { result in
                resume { handler in handler.pushTargetsStored(token, result) }
            }
            return
        }
        accept(parked, featureCaps: nil)
    }

    /// The REGISTER's push targets are stored, or could not be: then the
    /// binding change is undone (in memory and on disk) and the phone is told
    /// to try again, so that no binding is left without the push target it named.
    private func pushTargetsStored(_ token: UInt64, _ result: Result<[String: DeviceTuple], any Error>) {
        guard let parked = pending.removeValue(forKey: token) else { return }
        switch (result, pns) {
        case (.success(let tuples), let pns?):
            accept(parked, featureCaps: pns.stored(aor: parked.aor, work: parked.pnsWork, tuples: tuples, now: clock()))
        default:
            // Not stored (or no push service left to store them): only what
            // is still as this REGISTER left it is undone (a later REGISTER
            // of the same device, committed meanwhile, stays), and the
            // REGISTER still gets its answer.
            let now = Date.distantPast
            let present = Set(table.bindings(of: parked.aor, now: now))
            let keys = Set(present.map(\.key))
            let inverse = Self.inverse(of: parked.changes).filter { change in
                switch change {
                case .removed(let binding, _): return present.contains(binding)
                case .refreshed(let current, _): return present.contains(current)
                case .added(let binding): return !keys.contains(binding.key)
                }
            }
            table.apply(inverse)
            track(inverse)
            if !inverse.isEmpty { onBindingsChanged?(inverse, nil) }
            let logger = self.logger
            let failed = metrics.persistFailed
            failed.increment()
            writer.submit(inverse) { result in
                if case .failure(let error) = result {
                    failed.increment()
                    logger.warning("binding of a refused push target not removed from disk", metadata: ["error": "\(error)"])
                }
            }
            answer(parked.request, key: parked.key, 500, "Push Target Not Stored", headers: [("Retry-After", "5")])
        }
    }

    private func accept(_ parked: PendingRegister, featureCaps: String?) {
        metrics.accepted.increment()
        logger.debug("register accepted", metadata: [
            "sip.aor": "\(parked.aor)", "sip.call_id": "\(parked.request.message.callID ?? "")",
            "bindings.count": .stringConvertible(parked.bindings.count),
            "client.address": "\(parked.request.source.host)", "client.port": .stringConvertible(parked.request.source.port),
            "client.transport": "\(parked.request.source.transport.rawValue)"])
        replyOK(parked.request, key: parked.key, bindings: parked.bindings, wantsOutbound: parked.wantsOutbound,
                now: clock(), featureCaps: featureCaps)
    }

    private func replyOK(_ request: IncomingRequest, key: RegisterTransactionID, bindings: [Binding],
                         wantsOutbound: Bool, now: Date, featureCaps: String? = nil) {
        var headers: [(name: String, value: String)] = []
        if !bindings.isEmpty {
            headers.append(("Contact", bindings.map { Self.contactValue($0, now: now) }.joined(separator: ", ")))
        }
        for path in request.message.path { headers.append(("Path", path)) }
        headers.append(("Supported", "path, outbound"))
        if wantsOutbound { headers.append(("Require", "outbound")) }
        if let featureCaps { headers.append(("Feature-Caps", featureCaps)) }
        headers.append(("Date", Self.httpDate(now)))
        answer(request, key: key, 200, "OK", headers: headers)
    }

    /// RFC 8599 §5: the Contact names a push service (or an app of it) that
    /// sipwake cannot push to. `featureCaps` lists the services it can.
    private func rejectUnsupportedPush(_ request: IncomingRequest, key: RegisterTransactionID, featureCaps: String?) {
        metrics.rejected.increment()
        answer(request, key: key, 555, "Push Notification Service Not Supported",
               headers: featureCaps.map { [("Feature-Caps", $0)] } ?? [])
    }

    /// Refuses a REGISTER. Before authentication (no `key`) the answer is
    /// not kept: a retransmission is handled anew, as any stranger's request.
    private func reject(_ request: IncomingRequest, _ status: Int, _ phrase: String,
                        key: RegisterTransactionID? = nil) {
        metrics.rejected.increment()
        logger.debug("register rejected", metadata: [
            "sip.status": .stringConvertible(status), "sip.reason": "\(phrase)", "sip.call_id": "\(request.message.callID ?? "")",
            "client.address": "\(request.source.host)"])
        if let key {
            answer(request, key: key, status, phrase)
        } else {
            request.replyStateless(status, phrase)
        }
    }

    /// Answers a REGISTER that passed authentication, statelessly, and keeps
    /// the answer for its retransmissions (`RegisterAnswers`).
    private func answer(_ request: IncomingRequest, key: RegisterTransactionID, _ status: Int, _ phrase: String,
                        headers: [(name: String, value: String)] = []) {
        answers.send(RegisterAnswer(status: status, phrase: phrase, headers: headers), to: request, id: key,
                     now: clock())
    }

    // MARK: Expiry

    /// Removes expired bindings and persists the removals.
    func expire() {
        let unanswered = answers.expire(now: clock())
        if unanswered > 0 {
            metrics.unanswered.increment(by: unanswered)
            logger.warning("registers unanswered after 32 s no longer taken as in progress", metadata: [
                "registers.count": .stringConvertible(unanswered), "registers.waiting": .stringConvertible(pending.count)])
        }
        let changes = table.expire(now: clock())
        guard !changes.isEmpty else { return }
        track(changes)
        onBindingsChanged?(changes, nil)
        pns?.bindingsChanged(changes)
        metrics.expired.increment(by: changes.count)
        metrics.bindings.record(table.count)
        let logger = self.logger
        let failed = metrics.expiryDeleteFailed
        logger.debug("bindings expired", metadata: ["bindings.count": .stringConvertible(changes.count)])
        writer.submit(changes) { result in
            if case .failure(let error) = result {
                failed.increment()
                logger.warning("expired bindings not removed from disk", metadata: ["error": "\(error)"])
            }
        }
    }

    // MARK: Operator deletes

    /// Drops the bindings the operator deleted from the store (the deletion
    /// feed, read by `SIPServer.runBindingDeletions`), unless the device
    /// refreshed them since. Calls in progress stop ringing them, and the
    /// removal is journalled too: a REGISTER committed just after the
    /// delete cannot bring the row back while memory no longer has it.
    func applyDeletions(_ deletions: [BindingDeletion]) {
        var changes: [BindingChange] = []
        for deletion in deletions {
            for binding in table.bindings(of: deletion.aor, now: .distantPast) where deletion.covers(binding) {
                changes.append(.removed(binding, reason: .deleted))
            }
        }
        guard !changes.isEmpty else { return }
        table.apply(changes)
        track(changes)
        onBindingsChanged?(changes, nil)
        pns?.bindingsChanged(changes)
        metrics.deleted.increment(by: changes.count)
        metrics.bindings.record(table.count)
        for change in changes {
            if case .removed(let binding, _) = change {
                logger.info("binding deleted by the operator", metadata: [
                    "sip.aor": "\(binding.aor)", "sip.contact": "\(binding.contact)"])
            }
        }
        let logger = self.logger
        let failed = metrics.deletionFeedFailed
        writer.submit(changes) { result in
            if case .failure(let error) = result {
                failed.increment()
                logger.warning("deleted bindings not removed from disk", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Binding changes other nodes committed to the shared store: applied
    /// to the location table (not written again), and handed to the call
    /// proxy, so a call pending here forks to a phone that registered there.
    func applyRemoteEvents(_ events: [BindingEvent]) {
        let changes = table.applyRemote(events)
        guard !changes.isEmpty else { return }
        track(changes)
        onRemoteBindingsChanged?(changes)
        pns?.bindingsChanged(changes)
        metrics.bindings.record(table.count)
        logger.debug("bindings changed on another node", metadata: ["bindings.changes": .stringConvertible(changes.count)])
    }

    /// A read of the deletion feed failed: counted, warned.
    func deletionFeedFailed(_ error: any Error) {
        metrics.deletionFeedFailed.increment()
        // Read every 200 ms: a file that stays unreadable is one line a minute.
        guard let failures = deletionFeedFailures.add(1, now: Date()) else { return }
        logger.warning("binding deletion feed not read",
                       metadata: ["error": "\(error)", "bindings.feed_failures": .stringConvertible(failures)])
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
