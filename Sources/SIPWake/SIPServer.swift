import Config
import Foundation
import Logging
import Metrics
import Model
import Ports
import Push
import Registrar
import SIPCore

/// The actor that owns all SIP state: the Sofia agent, the registrar and
/// its location table. It runs on the SIP loop (its executor is the loop), so
/// Sofia callbacks enter it synchronously and nothing in it needs a lock.
actor SIPServer: SIPRequestHandler {
    nonisolated let loop: SIPLoop
    nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }

    private let listeners: [SIPListener]
    private let options: SIPAgentOptions
    private let settings: RegistrarSettings
    private let logger: Logger
    private let writer: any BindingJournal
    private let directory: UserDirectory
    private let metrics: any MetricsFactory
    /// Usernames the authenticator wants looked up (`runUserLookups`).
    private let userLookups: AsyncStream<String>
    private let userLookupRequests: AsyncStream<String>.Continuation
    private let clock: @Sendable () -> Date
    private var agent: SIPAgent?
    private var authenticator: SIPAuthenticator?
    private var registrar: RegistrarHandler?
    private var calls: CallProxy?
    private var dialogs: DialogRouter?
    private var messages: MessageRelay?
    private var admission: RequestAdmission
    private let admissionMetrics: AdmissionMetrics
    /// The server transactions Sofia holds, sampled every tick
    /// (`SIPAgent.serverTransactionCount`).
    private let serverTransactions: Gauge
    /// The SIP loop's share of one core over the last 100 ms, sampled every second.
    private let loopBusy: Gauge
    /// Device tuples (the devices pushes can reach) held in memory, sampled every second.
    private let deviceTuples: Gauge
    /// How long a job waited on the SIP loop before it ran (`runLoopLagProbe`).
    nonisolated let loopLag: Metrics.Timer
    private let callSettings: CallProxySettings
    private let tuples: any TupleRepository
    private let records: (any CallRecordSink)?
    private let push: PushClient?
    private let pnsDirectory: PNSDirectory
    private let tupleIndex: DeviceTupleIndex?
    private var keepalive: BindingKeepalive?
    /// Failed reads of the binding event feed, logged once a minute.
    private var bindingEventFailures = ThrottledCount(interval: 60)
    private var storeNotificationFailures = ThrottledCount(interval: 60)

    static let allowedMethods = "REGISTER, OPTIONS, INVITE, ACK, CANCEL, BYE, UPDATE, INFO, PRACK, MESSAGE"

    init(loop: SIPLoop, listeners: [SIPListener], options: SIPAgentOptions, settings: RegistrarSettings,
         writer: any BindingJournal, directory: UserDirectory, callSettings: CallProxySettings,
         tuples: any TupleRepository, records: (any CallRecordSink)?, push: PushClient?,
         pnsDirectory: PNSDirectory = PNSDirectory(apps: []), tupleIndex: DeviceTupleIndex? = nil, logger: Logger,
         metrics: any MetricsFactory, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.pnsDirectory = pnsDirectory
        self.tupleIndex = tupleIndex
        self.callSettings = callSettings
        self.tuples = tuples
        self.records = records
        self.push = push
        self.loop = loop
        self.listeners = listeners
        self.options = options
        self.settings = settings
        self.writer = writer
        self.directory = directory
        self.metrics = metrics
        self.admissionMetrics = AdmissionMetrics(factory: metrics)
        self.serverTransactions = Gauge(label: "sipwake_sip_server_transactions", factory: metrics)
        self.loopBusy = Gauge(label: "sipwake_sip_loop_busy_ratio", factory: metrics)
        self.deviceTuples = Gauge(label: "sipwake_device_tuples", factory: metrics)
        self.loopLag = Metrics.Timer(label: "sipwake_sip_loop_lag_seconds", factory: metrics)
        (userLookups, userLookupRequests) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
        self.logger = logger
        self.clock = clock
        self.admission = RequestAdmission(perSource: settings.maxUnauthenticatedPerSource,
                                          global: settings.maxStatelessPerSecond, now: clock())
    }

    /// A reload's push settings: badges, sounds, the apps' notices and
    /// webhooks for the pushes sent from now on, and the RFC 8599 directory
    /// for the registrations that follow.
    func reloadPush(config: SipwakeConfig, pnsDirectory: PNSDirectory) {
        calls?.reloadPush(config)
        registrar?.pns?.directory = pnsDirectory
    }

    /// The records of the calls in progress, oldest first.
    func liveCalls() -> [CallRecord] {
        calls?.liveRecords ?? []
    }

    /// Loads the saved state and binds every listener. The timers and the
    /// user lookups run in `SIPService`'s task group (`runHousekeeping`,
    /// `runUserRefresh`, `runUserLookups`).
    func start(bindings: [Binding], users: [UserRecord], usersVersion: Int64) throws {
        let lookups = userLookupRequests
        let authenticator = SIPAuthenticator(
            settings: settings, lookUp: { lookups.yield($0) }, logger: logger, metrics: metrics, clock: clock)
        authenticator.replaceUsers(users, version: usersVersion)
        authenticator.onAuthenticated = { [weak self] source in
            self?.assumeIsolated { server in server.admission.authenticated(source: source, now: server.clock()) }
        }
        self.authenticator = authenticator
        let registrar = RegistrarHandler(
            settings: settings, authenticator: authenticator, writer: writer, logger: logger, metrics: metrics,
            clock: clock,
            resume: { [loop, weak self] body in
                loop.execute { [weak self] in
                    self?.assumeIsolated { server in
                        if let registrar = server.registrar { body(registrar) }
                    }
                }
            })
        registrar.load(bindings: bindings)
        self.registrar = registrar
        let calls = CallProxy(
            settings: callSettings, tuples: tuples, tupleIndex: tupleIndex, records: records, push: push,
            logger: logger, metrics: metrics, clock: clock,
            resume: { [loop, weak self] body in
                loop.execute { [weak self] in
                    self?.assumeIsolated { server in
                        if let calls = server.calls { body(calls) }
                    }
                }
            })
        calls.currentBindings = { [weak registrar] aor in registrar?.bindings(of: aor) ?? [] }
        registrar.onBindingsChanged = { [weak calls] changes, request in
            calls?.bindingsChanged(changes, receivedAt: request?.receivedAt)
        }
        registrar.onRemoteBindingsChanged = { [weak calls] changes in calls?.remoteBindingsChanged(changes) }
        self.calls = calls
        registrar.pns = PNSRegistrations(
            directory: pnsDirectory, refreshBefore: settings.pnRefreshBefore, refreshRetries: settings.pnRefreshRetries,
            maxTargetsPerUser: settings.policy.maxBindingsPerAOR,
            tuples: calls.tupleWork, sender: push, logger: logger, metrics: metrics, clock: clock,
            resume: { [loop, weak self] body in
                loop.execute { [weak self] in
                    self?.assumeIsolated { server in
                        if let pns = server.registrar?.pns { body(pns) }
                    }
                }
            })
        registrar.pns?.restore(bindings: bindings)
        let dialogs = DialogRouter(settings: callSettings, logger: logger, metrics: metrics)
        dialogs.onHangUp = { [weak calls] callID, fromTag, toTag in
            calls?.hungUp(callID: callID, fromTag: fromTag, toTag: toTag)
        }
        self.dialogs = dialogs
        let messages = MessageRelay(logger: logger, metrics: metrics)
        self.messages = messages
        if settings.keepaliveInterval > 0 {
            keepalive = BindingKeepalive(intervalSeconds: settings.keepaliveInterval,
                                         domain: settings.primaryDomain, logger: logger, metrics: metrics)
        }
        let agent = try SIPAgent(loop: loop, listeners: listeners, options: options, handler: self)
        self.agent = agent
        calls.agent = agent
        agent.onRetiredBranchFailure = { [weak calls] failure in calls?.stoppedBranchFailed(failure) }
        dialogs.agent = agent
        messages.agent = agent
        logger.info("sip listening", metadata: [
            "sip.listen": "\(listeners.map { "\($0.transport.rawValue):\($0.host):\($0.port)" }.joined(separator: ","))",
            "bindings.count": .stringConvertible(registrar.table.count), "users.count": .stringConvertible(users.count),
            "sip.loop_priority": "\(loop.runsAheadOfBackgroundThreads ? "raised" : "normal")"])
    }

    // MARK: Timers and lookups (child tasks of `SIPService.run`, cancelled at shutdown)

    /// Once a second: expiry, call timers, keepalives, idle connections.
    func runHousekeeping() async {
        while (try? await Task.sleep(for: .seconds(1))) != nil {
            tick()
        }
    }

    /// How often a probe job is queued on the SIP loop to time its wait.
    static let loopLagProbeInterval = Duration.milliseconds(500)

    /// Until cancelled: queues a job on the SIP loop from outside it and
    /// records how long it waited to run (`sipwake_sip_loop_lag_seconds`),
    /// what every message and every answer from the writers waits on a
    /// busy loop.
    nonisolated func runLoopLagProbe() async {
        let loop = self.loop
        let lag = loopLag
        while (try? await Task.sleep(for: Self.loopLagProbeInterval)) != nil {
            let queued = ContinuousClock.now
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                loop.execute {
                    lag.record(duration: ContinuousClock.now - queued)
                    done.resume()
                }
            }
        }
    }

    /// What a node's caches wait on between their timed reads: the store's
    /// notifications of other processes' commits ring them.
    nonisolated let storeChanges = StoreChangeBells()

    /// Rings `storeChanges` at each of the store's notifications, until
    /// cancelled. While they are lost, the readers read on their timers.
    nonisolated func runStoreNotifications(_ notifications: any StoreNotifications) async {
        let bells = storeChanges
        await notifications.listen({ change in bells.ring(change) }, failed: { error in
            await self.storeNotificationsFailed(error)
        })
    }

    private func storeNotificationsFailed(_ error: any Error) {
        Counter(label: "sipwake_store_notifications_failures_total", factory: metrics).increment()
        // Tried again every second: a store that stays away is one line a minute.
        guard let failures = storeNotificationFailures.add(1, now: clock()) else { return }
        logger.warning("store notifications lost: other nodes' writes are read on the timers",
                       metadata: ["error": "\(error)", "store.notification_failures": .stringConvertible(failures)])
    }

    /// Reloads the users when the users table changed: at once when the
    /// store announces it, and twice a second anyway.
    func runUserRefresh() async {
        while !Task.isCancelled {
            await storeChanges.users.wait(atMost: .milliseconds(500))
            guard !Task.isCancelled, let known = usersVersion else { continue }
            if let snapshot = try? await directory.snapshot(ifChangedFrom: known) {
                replaceUsers(snapshot.records, version: snapshot.version)
            }
        }
    }

    /// How often the device-tuple index reads the store's change feed, for
    /// the writes of other processes (this process's own writes reach it
    /// at once, and a call that finds it behind asks for a catch-up).
    static let tupleRefreshInterval = Duration.milliseconds(200)

    /// Keeps the device-tuple index current with writes from other
    /// processes, until cancelled. The reads run on a thread of their own,
    /// off the SIP loop and off Swift's cooperative threads.
    nonisolated func runTupleRefresh() async {
        guard let tupleIndex else { return }
        let store = tuples
        let queue = DispatchQueue(label: "sipwake.tuples.poll")
        let bell = storeChanges.tuples
        while !Task.isCancelled {
            await bell.wait(atMost: Self.tupleRefreshInterval)
            if Task.isCancelled { return }
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                queue.async {
                    tupleIndex.refresh(from: store)
                    done.resume()
                }
            }
        }
    }

    /// How often the registrar reads the store's binding-deletion feed.
    static let bindingDeletionsInterval = Duration.milliseconds(200)

    /// Drops the bindings the operator deletes in the store (any process:
    /// the CLI, the admin API, `users remove`) from the location table,
    /// until cancelled. `head` is the feed's latest entry read before the
    /// bindings were loaded. The reads run on a thread of their own.
    nonisolated func runBindingDeletions(store: any BindingRepository, from head: Int64) async {
        let queue = DispatchQueue(label: "sipwake.bindings.deletions")
        var through = head
        let bell = storeChanges.bindingDeletions
        while !Task.isCancelled {
            await bell.wait(atMost: Self.bindingDeletionsInterval)
            if Task.isCancelled { return }
            let after = through
            let read = await withCheckedContinuation { (done: CheckedContinuation<Result<BindingDeletions, any Error>, Never>) in
                queue.async { done.resume(returning: Result { try store.deletions(after: after, limit: 500) }) }
            }
            switch read {
            case .success(let feed):
                through = feed.through
                if !feed.deletions.isEmpty { await applyDeletions(feed.deletions) }
            case .failure(let error):
                await deletionFeedFailed(error)
            }
        }
    }

    /// How long the event loop waits for a notification before it reads anyway.
    static let bindingEventsInterval: Duration = .milliseconds(200)

    /// Applies the binding changes other nodes commit to the shared store
    /// (`BindingEventFeed`), from `head` on, until cancelled. A feed whose
    /// store notifies (PostgreSQL's NOTIFY) wakes this at once; reads run
    /// off the loop, the changes on it.
    nonisolated func runBindingEvents(feed: any BindingEventFeed, from head: Int64) async {
        let doorbell = storeChanges.bindings
        let queue = DispatchQueue(label: "sipwake.bindings.events")
        var through = head
        while !Task.isCancelled {
            await doorbell.wait(atMost: Self.bindingEventsInterval)
            if Task.isCancelled { return }
            let after = through
            let read = await withCheckedContinuation { (done: CheckedContinuation<Result<BindingEvents, any Error>, Never>) in
                queue.async { done.resume(returning: Result { try feed.events(after: after, limit: 500) }) }
            }
            switch read {
            case .success(let batch):
                through = batch.through
                let remote = batch.events.filter { $0.node != feed.node }
                if !remote.isEmpty { await applyRemoteEvents(remote) }
                if batch.missed { await bindingEventsMissed() }
                // A full batch: read on at once.
                if batch.events.count == 500 { doorbell.ring() }
            case .failure(let error):
                await bindingEventsFailed(error)
                try? await Task.sleep(for: Self.bindingEventsInterval)
            }
        }
    }

    private func applyRemoteEvents(_ events: [BindingEvent]) {
        registrar?.applyRemoteEvents(events)
    }

    private func bindingEventsMissed() {
        Counter(label: "sipwake_binding_events_failures_total", dimensions: [("reason", "missed")], factory: metrics)
            .increment()
        logger.warning("binding events missed: bindings registered on other nodes are known here at their next refresh")
    }

    private func bindingEventsFailed(_ error: any Error) {
        Counter(label: "sipwake_binding_events_failures_total", dimensions: [("reason", "read")], factory: metrics)
            .increment()
        // Read every 200 ms at most: a store that stays away is one line a minute.
        guard let failures = bindingEventFailures.add(1, now: clock()) else { return }
        logger.warning("binding events not read",
                       metadata: ["error": "\(error)", "bindings.feed_failures": .stringConvertible(failures)])
    }

    private func applyDeletions(_ deletions: [BindingDeletion]) {
        registrar?.applyDeletions(deletions)
    }

    private func deletionFeedFailed(_ error: any Error) {
        registrar?.deletionFeedFailed(error)
    }

    /// Looks up the users the authenticator asks for, one at a time, until
    /// cancelled; each answer goes back to the authenticator on the loop.
    func runUserLookups() async {
        await withTaskCancellationHandler {
            for await name in userLookups {
                let record = await directory.find(name)
                authenticator?.userLoaded(name, record: record)
            }
        } onCancel: { [userLookupRequests] in
            userLookupRequests.finish()
        }
    }

    private var shuttingDown = false

    /// From now on new requests get 503.
    func beginShutdown() {
        shuttingDown = true
    }

    /// Returns once the replies queued on the loop so far have run.
    func drainReplies() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            loop.execute { continuation.resume() }
        }
    }

    /// Shutdown: ends every call in progress (`interrupted`: 503 upstream,
    /// branches cancelled, missed notifications sent now) and the grace
    /// period of those already ended, then waits until their pushes are
    /// answered, so their records show it, at most `limit`.
    func interruptCalls(waitingAtMost limit: Duration) async {
        guard let calls, calls.pendingCount > 0 else { return }
        logger.info("shutting down calls", metadata: ["calls.count": .stringConvertible(calls.pendingCount)])
        calls.interruptAll()
        let deadline = ContinuousClock.now + limit
        while let left = self.calls?.pendingCount, left > 0 {
            guard ContinuousClock.now < deadline, !Task.isCancelled else {
                logger.warning("pushes of interrupted calls unanswered at shutdown", metadata: ["calls.count": .stringConvertible(left)])
                return
            }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// The calls' queued tuple reads and writes, for the shutdown to wait for.
    var tupleWork: DeviceTupleQueue? { calls?.tupleWork }

    /// Closes every listener and connection.
    func stop() {
        authenticator?.abandonLookups()
        if let calls {
            logger.info("call latency", metadata: [
                "latency.invite_to_forks": "\(calls.forkLatency.summary)",
                "latency.invite_to_pushes": "\(calls.pushLatency.summary)",
                "latency.register_to_late_fork": "\(calls.lateForkLatency.summary)",
                "latency.remote_register_to_fork": "\(calls.remoteForkLatency.summary)"])
            calls.closeAll()
        }
        messages?.closeAll()
        calls = nil
        dialogs = nil
        messages = nil
        agent?.close()
        agent = nil
    }

    private var usersVersion: Int64? { authenticator?.usersVersion }

    private func replaceUsers(_ users: [UserRecord], version: Int64) {
        authenticator?.replaceUsers(users, version: version)
    }

    private func tick() {
        registrar?.expire()
        registrar?.pns?.tick()
        calls?.tick()
        guard let registrar, let agent else { return }
        serverTransactions.record(agent.serverTransactionCount)
        loopBusy.record(agent.load.lastRatio)
        if let tupleIndex { deviceTuples.record(tupleIndex.counts.tuples) }
        keepalive?.tick(bindings: registrar.table.allBindings(), agent: agent)
        agent.connections.sweep(inUse: { registrar.isConnectionInUse($0) })
    }

    var bindingCount: Int { registrar?.table.count ?? 0 }

    // MARK: Requests

    func handle(_ request: IncomingRequest) {
        let message = request.message
        if shuttingDown {
            if message.methodKind != .ack {
                request.replyStateless(503, "Shutting Down", tags: SofiaTagList().header("Retry-After", "5"))
            }
            return
        }
        // A REGISTER never has a transaction: its retransmissions are
        // recognised here, before the flood check, as Sofia's transaction
        // would have absorbed them before anything else.
        if message.methodKind == .register, registrar?.absorbRetransmission(request) == true { return }
        guard admit(request) else { return }
        if let uri = message.requestURI, !Self.supportedSchemes.contains(uri.scheme.lowercased()) {
            // RFC 3261 §8.2.2.1: a Request-URI scheme the server does not understand.
            refusedFromPeer(request, callee: uri.user, status: 416, reason: "unsupported Request-URI scheme \(uri.scheme)")
            if message.methodKind != .ack { request.replyStateless(416, "Unsupported URI Scheme") }
            return
        }
        switch message.methodKind {
        case .register:
            registrar?.handle(request)
        case .options where message.toTag == nil:
            answerOptions(request)
        case .invite where message.toTag == nil:
            routeOutOfDialog(request)
        case .message where message.toTag == nil && dialogs?.isRoutedHere(message) != true:
            routeOutOfDialog(request)
        case .cancel:
            // A CANCEL matching a pending INVITE never gets here (Sofia hands it
            // to that INVITE); this one matches nothing.
            request.replyStateless(481, "Call/Transaction Does Not Exist")
        case _ where dialogs?.isRoutedHere(message) == true:
            dialogs?.forwardInDialog(request)
        case .ack:
            // The ACK of a response this server sent itself: the transaction ends here.
            break
        default:
            if let uri = message.requestURI, !settings.serves(uri.host) {
                // Never an open relay: requests for other domains are refused.
                admissionMetrics.relayRefused.increment()
                logger.debug("relay refused", metadata: ["sip.request_uri": "\(uri)", "client.address": "\(request.source.host)"])
                request.replyStateless(403, "Relaying Forbidden")
            } else {
                request.replyStateless(501, "Not Implemented", tags: SofiaTagList().header("Allow", Self.allowedMethods))
            }
        }
    }

    /// URI schemes a Request-URI may use here.
    static let supportedSchemes: Set<String> = ["sip", "sips"]

    /// The flood check (`RequestAdmission`): false when the request was
    /// dropped unanswered.
    private func admit(_ request: IncomingRequest) -> Bool {
        let source = request.source.host
        let exempt = authenticator?.isTrusted(request.source) == true || settings.isEdgeProxy(source)
        let decision = admission.admit(source: source, exempt: exempt,
                                       overloaded: agent?.load.isOverloaded ?? false, now: clock())
        guard decision != .admit else { return true }
        admissionMetrics.count(decision)
        request.drop()
        return false
    }

    /// A new INVITE or MESSAGE: to a local user it starts a forked call or
    /// relays the message to the user's contacts; from an authenticated
    /// phone to anything else it goes to the outbound proxy; anything else is
    /// refused (never an open relay).
    private func routeOutOfDialog(_ request: IncomingRequest) {
        guard let authenticator, let registrar, let calls, let dialogs, let messages else { return }
        let message = request.message
        let isInvite = message.methodKind == .invite
        guard let uri = message.requestURI else {
            refusedFromPeer(request, callee: nil, status: 400, reason: "no SIP Request-URI")
            return request.replyStateless(400, "No Request-URI")
        }
        let trusted = authenticator.isTrusted(request.source)
        let local = settings.serves(uri.host)
        // A request to a foreign domain can only come from one of our users
        // (it is then challenged, and relayed once authenticated to the
        // outbound proxy), or from a trusted peer: anything else is refused.
        let fromLocalUser = message.fromURI.map { settings.serves($0.host) } ?? false
        if !trusted && !local && (!fromLocalUser || callSettings.outboundProxy == nil) {
            admissionMetrics.relayRefused.increment()
            logger.debug("relay refused", metadata: ["sip.request_uri": "\(uri)", "client.address": "\(request.source.host)"])
            return request.replyStateless(403, "Relaying Forbidden")
        }
        var caller: String?
        if !trusted {
            // The retry runs on the SIP loop, this actor's executor, after a
            // user lookup: the request never leaves the loop.
            nonisolated(unsafe) let parked = request
            // A call to a local user whose caller's credentials failed is recorded.
            let refused: ((AuthRefusal) -> Void)? = isInvite && local ? { refusal in
                calls.refused(request, callee: uri.user, status: refusal.status, reason: refusal.reason)
            } : nil
            guard case .authenticated(let user) = authenticator.check(
                request, kind: .proxy, expectedUser: message.fromURI?.user?.lowercased(), refused: refused,
                retry: { [weak self] in self?.assumeIsolated { $0.routeOutOfDialog(parked) } })
            else { return }
            caller = user
        }
        if local, let name = uri.user, let user = authenticator.user(name) {
            if isInvite {
                calls.startCall(request, aor: user.username, bindings: registrar.bindings(of: user.username),
                                wakeupHold: user.wakeupHold, callerTrusted: trusted)
            } else {
                messages.relay(request, to: registrar.bindings(of: user.username))
            }
            return
        }
        if caller != nil, let outbound = callSettings.outboundProxy {
            dialogs.forwardToOutboundProxy(request, outboundProxy: outbound)
            return
        }
        if local {
            if isInvite { calls.refused(request, callee: uri.user, status: 404, reason: "unknown user") }
            request.replyStateless(404, "Not Found")
        } else {
            request.replyStateless(403, "Relaying Forbidden")
        }
    }

    /// A new INVITE from a trusted peer (the PBX) refused before anything
    /// else: recorded as a rejected call. A stranger's is not: nobody has
    /// vouched for it yet.
    private func refusedFromPeer(_ request: IncomingRequest, callee: String?, status: Int, reason: String) {
        let message = request.message
        guard message.methodKind == .invite, message.toTag == nil, authenticator?.isTrusted(request.source) == true
        else { return }
        calls?.refused(request, callee: callee, status: status, reason: reason)
    }

    private func answerOptions(_ request: IncomingRequest) {
        let tags = SofiaTagList()
            .header("Allow", Self.allowedMethods)
            .header("Accept", "application/sdp")
            .header("Supported", "path, outbound")
        request.replyStateless(200, "OK", tags: tags)
    }
}
