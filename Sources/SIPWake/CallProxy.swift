import Config
import Forking
import Foundation
import Logging
import Metrics
import Model
import Ports
import Push
import Registrar
import SIPCore

/// The push-paired forking proxy as seen from the SIP loop (RFC 3261 §16):
/// for each INVITE to a local user it runs a `CallFork` and carries out its
/// actions: branches to the user's contacts, pushes to the user's devices,
/// responses upstream, CANCELs, missed-call MESSAGEs. Calls from phones to
/// other destinations go to the outbound proxy. This type is the glue:
/// SIP events become `CallFork` events and its actions become SIP and push
/// work, done by the parts it holds (``CallRegistry``, ``BranchForwarder``,
/// ``PushDispatcher``, ``CallRecorder``). Owned by `SIPServer`, loop thread only.
final class CallProxy {
    private var settings: CallProxySettings
    private let tuples: DeviceTupleQueue
    /// Every user's tuples in memory, when the server keeps them: a call to
    /// a user with tuples pushes without reading the store.
    private let tupleIndex: DeviceTupleIndex?
    /// The tuple work of calls, for the shutdown to wait for.
    var tupleWork: DeviceTupleQueue { tuples }
    private let recorder: CallRecorder
    private var rejected: RejectedCalls
    private var pushes: PushDispatcher
    private let forwarder: BranchForwarder
    private let logger: Logger
    private let clock: @Sendable () -> Date
    /// Runs a closure back on the SIP loop, inside the owning actor.
    private let resume: @Sendable (@escaping @Sendable (CallProxy) -> Void) -> Void
    private let metrics: CallMetrics
    /// CANCELs and ACKs of stopped branches not sent, stopped branches forgotten early.
    private var stoppedBranches: StoppedBranchFailures
    /// INVITE received → its branches to registered contacts sent.
    let forkLatency = LatencyHistogram()
    /// INVITE received → its pushes handed to the HTTP client (after the
    /// tuples are read; the branches went out before).
    let pushLatency = LatencyHistogram()
    /// REGISTER received → the late branch to that device sent.
    let lateForkLatency = LatencyHistogram()
    /// A binding committed by another node (its `updatedAt`, that node's
    /// clock) → the late branch to it sent from here.
    let remoteForkLatency = LatencyHistogram()
    private var branchesSent = 0
    var agent: SIPAgent?

    private var calls = CallRegistry<PendingCall>()
    /// The answered calls still kept, by Call-ID, for their BYE.
    private var answeredCalls: [String: String] = [:]
    /// Events produced while actions run, handled after them (no re-entrancy).
    private var queued: [(String, ForkEvent)] = []
    private var draining = false

    init(settings: CallProxySettings, tuples: any TupleRepository, tupleIndex: DeviceTupleIndex? = nil,
         records: (any CallRecordSink)?,
         push: (any PushSender)?, logger: Logger, metrics: any MetricsFactory, clock: @escaping @Sendable () -> Date,
         resume: @escaping @Sendable (@escaping @Sendable (CallProxy) -> Void) -> Void) {
        self.settings = settings
        self.metrics = CallMetrics(factory: metrics)
        stoppedBranches = StoppedBranchFailures(metrics: self.metrics, logger: logger)
        self.tuples = DeviceTupleQueue(store: tuples)
        self.tupleIndex = tupleIndex
        recorder = CallRecorder(sink: records)
        rejected = RejectedCalls(sink: records, cap: RejectedCallCap(perMinute: settings.rejectedRecordsPerMinute),
                                 metrics: self.metrics, logger: logger)
        pushes = PushDispatcher(
            sender: push, tupleResults: records == nil ? self.tuples : nil, incomingBadge: settings.incomingBadge,
            missedBadge: settings.missedBadge, sound: settings.sound, appSounds: settings.appSounds,
            wakeWindow: settings.fork.wakeWindow)
        forwarder = BranchForwarder(settings: settings)
        self.logger = logger
        self.clock = clock
        self.resume = resume
    }

    var pendingCount: Int { calls.count }

    /// A reload: the push settings of `config` apply to pushes sent from
    /// now on, in calls already pending too.
    func reloadPush(_ config: SipwakeConfig) {
        settings.applyPush(config)
        pushes.incomingBadge = settings.incomingBadge
        pushes.missedBadge = settings.missedBadge
        pushes.sound = settings.sound
        pushes.appSounds = settings.appSounds
    }

    /// The records of the calls pending now, oldest first.
    var liveRecords: [CallRecord] {
        calls.all.map(\.record).sorted { $0.startedAt < $1.startedAt }
    }

    // MARK: Incoming call

    /// An INVITE for `aor`, a local user, already authorised. `bindings` are
    /// the user's contacts now; `wakeupHold` is the user's flag.
    func startCall(_ request: IncomingRequest, aor: String, bindings: [Binding], wakeupHold: Bool, callerTrusted: Bool) {
        let message = request.message
        request.reply(100, "Trying")
        guard let probe = ForwardedRequest(copying: message), probe.decrementMaxForwards() else {
            refused(request, callee: aor, status: 483, reason: "too many hops")
            request.reply(483, "Too Many Hops")
            return
        }
        let callID = message.callID ?? UUID.random().uuidString
        let pairingID = Self.pushID(of: message) ?? (settings.pairingFromUUID ? UUID.random().uuidString : callID)
        let from = message.fromURI
        let caller = CallerInfo(uri: from?.description ?? "", displayName: message.fromDisplay.map(Self.unquote),
                                user: from?.user, domain: from?.host)
        let media = Self.media(ofSDP: message.body)
        let key = UUID.random().uuidString
        let now = clock()
        let fork = CallFork(recordID: key, pairingID: pairingID, callID: callID, callee: aor, caller: caller,
                            settings: settings.fork, now: now)
        let callerToken = RecordRouteToken(flow: Self.flow(of: request.source, trusted: callerTrusted))
            .encoded(callID: callID, key: settings.tokenKey)
        var logger = self.logger
        logger[metadataKey: "call.pairing_id"] = "\(pairingID)"
        logger[metadataKey: "sip.call_id"] = "\(callID)"
        let call = PendingCall(key: key, aor: aor, request: request, fork: fork, pairingID: pairingID,
                               caller: caller, media: media, callerToken: callerToken, logger: logger,
                               calledNumber: message.toURI?.user ?? message.requestURI?.user)
        calls.add(call, key: key, aor: aor)
        metrics.calls.increment()
        request.onCancel { [weak self] reason in
            self?.callerCancelled(key, reason: reason)
        }

        let readTuples = wakeupHold && settings.pushEnabled
        guard readTuples else {
            logger.debug("call received", metadata: ["call.callee": "\(aor)", "call.tuples": "none"])
            deliver(key, .start(bindings: bindings, targets: [], wakeupHold: wakeupHold))
            return
        }
        // The called domain's webhook is told with the devices, whether the user has tuples or not.
        let webhook = settings.webhookAccount(forDomain: message.requestURI?.host).map { [PushTarget.webhook(account: $0)] } ?? []
        let switchedOff = settings.switchedOff
        if let known = tupleIndex?.tuples(of: aor) {
            logger.debug("call received", metadata: ["call.callee": "\(aor)", "call.tuples": "memory"])
            // Branches and pushes go out now, in this turn of the loop.
            let targets = known.map { Self.target($0, switchedOff: switchedOff) } + webhook
            deliver(key, .start(bindings: bindings, targets: targets, wakeupHold: true))
            return
        }
        // The branches go out now; pushes follow once the tuples are read, off the loop.
        logger.debug("call received", metadata: ["call.callee": "\(aor)", "call.tuples": "store"])
        deliver(key, .start(bindings: bindings, targets: nil, wakeupHold: true))
        guard calls[key] != nil else { return }
        let resume = self.resume
        let failed = metrics.tupleFailures
        tuples.read { [logger] store in
            let loaded = CallProxy.loadTargets(store, aor: aor, switchedOff: switchedOff, logger: logger,
                                               failed: failed) + webhook
            resume { proxy in proxy.tuplesLoaded(key, targets: loaded) }
        }
        // Another process wrote tuples: the index catches up, after this call's read.
        if let index = tupleIndex, index.askCatchUp() {
            tuples.refresh { store in index.refresh(from: store) }
        }
    }

    /// An INVITE for a local user refused before its call started (unknown
    /// user, failed credentials, a loop): recorded as a `rejected` call,
    /// within the cap. The caller answers it.
    func refused(_ request: IncomingRequest, callee: String?, status: Int, reason: String) {
        rejected.refused(request, callee: callee, status: status, reason: reason, now: clock())
    }

    /// "video" when the offer has a video stream (an `m=video` line, in any
    /// case), else "audio". Byte by byte: the SIP loop reads every INVITE's body.
    static func media(ofSDP body: String?) -> String {
        guard let body else { return "audio" }
        let marker = Array("m=video".utf8)
        let video = body.utf8.split(separator: UInt8(ascii: "\n")).contains { line in
            line.count >= marker.count && zip(line, marker).allSatisfy { $0 | 0x20 == $1 }
        }
        return video ? "video" : "audio"
    }

    /// The user's device tuples as push targets; `switchedOff`: per app
    /// id, the end-of-call events its `[apps.NAME]` table switched off.
    private static func loadTargets(_ tuples: any TupleRepository, aor: String,
                                    switchedOff: [String: Set<PushEvent>], logger: Logger,
                                    failed: Counter) -> [PushTarget] {
        do {
            return try tuples.list(username: aor, limit: DeviceTupleIndex.tuplesPerUser, offset: 0).map {
                target($0, switchedOff: switchedOff)
            }
        } catch {
            failed.increment()
            logger.warning("device tuples not read", metadata: ["call.callee": "\(aor)", "error": "\(error)"])
            return []
        }
    }

    /// A device tuple as a push target, without the events its app switched off.
    private static func target(_ tuple: DeviceTuple, switchedOff: [String: Set<PushEvent>]) -> PushTarget {
        PushTarget(tupleID: tuple.id,
                   provider: tuple.provider,
                   selector: tuple.selector, callsAppID: tuple.appIDCalls, callsToken: tuple.tokenCalls,
                   otherAppID: tuple.appIDOther, otherToken: tuple.tokenOther, platform: tuple.platform)
            .withSwitches { switchedOff[$0] ?? [] }
    }

    private func tuplesLoaded(_ key: String, targets: [PushTarget]) {
        deliver(key, .tuplesLoaded(targets))
    }

    /// The user's contacts now (set by the owner: the registrar's table).
    var currentBindings: ((String) -> [Binding])?

    private func callerCancelled(_ key: String, reason: String?) {
        guard let call = calls[key] else { return }
        call.cancelReason = reason
        let elsewhere = reason.map { $0.lowercased().replacingOccurrences(of: " ", with: "").contains("cause=200") } ?? false
        deliver(key, .callerCancelled(answeredElsewhere: elsewhere))
    }

    // MARK: Registrations during calls

    /// Binding changes accepted by the registrar: devices registering while a
    /// call to their user is pending get a branch at once.
    func bindingsChanged(_ changes: [BindingChange], receivedAt: ContinuousClock.Instant?) {
        guard !calls.isEmpty else { return }
        let before = branchesSent
        for change in changes {
            let aor: String
            let event: ForkEvent
            var registered: Binding?
            switch change {
            case .added(let b): aor = b.aor; event = .bindingAdded(b); registered = b
            case .refreshed(let old, let new): aor = new.aor; event = .bindingRefreshed(old: old, new: new); registered = new
            case .removed(let b, _): aor = b.aor; event = .bindingRemoved(b)
            }
            for key in calls.keys(ofAOR: aor) {
                let sent = branchesSent
                deliver(key, event)
                if let registered, branchesSent > sent, let call = calls[key] {
                    woke(registered, in: call, registeredAt: receivedAt)
                }
            }
        }
        if let receivedAt, branchesSent > before {
            let elapsed = ContinuousClock.now - receivedAt
            lateForkLatency.record(elapsed)
            metrics.lateForkLatency.record(duration: elapsed)
        }
    }

    /// Binding changes another node committed to the shared store: a call
    /// pending here forks to a device that registered there. How long from
    /// that node's commit time (`updatedAt`, its wall clock) to the branch
    /// leaving here is recorded per device (`sipwake_remote_fork_seconds`);
    /// across machines it includes the clocks' difference.
    func remoteBindingsChanged(_ changes: [BindingChange]) {
        guard !calls.isEmpty else { return }
        for change in changes {
            let sent = branchesSent
            bindingsChanged([change], receivedAt: nil)
            guard branchesSent > sent else { continue }
            let binding: Binding
            switch change {
            case .added(let b): binding = b
            case .refreshed(_, let new): binding = new
            case .removed: continue
            }
            let elapsed = Duration.seconds(max(0, clock().timeIntervalSince(binding.updatedAt)))
            remoteForkLatency.record(elapsed)
            metrics.remoteForkLatency.record(duration: elapsed)
        }
    }

    /// A device registered during its call and got its branch: how long
    /// after its incoming-call push it registered and its INVITE went out,
    /// once per device and call (`sipwake_device_wake_seconds`).
    private func woke(_ binding: Binding, in call: PendingCall, registeredAt: ContinuousClock.Instant?) {
        guard let (target, pushedAt) = call.fork.incomingCallPush(reaching: binding),
              call.woken.insert(target.tupleID).inserted else { return }
        let now = clock()
        let sinceRegister = registeredAt.map { ContinuousClock.now - $0 } ?? .zero
        let toInvite = now.timeIntervalSince(pushedAt)
        let toRegister = toInvite - Double(sinceRegister.components.seconds)
            - Double(sinceRegister.components.attoseconds) / 1e18
        metrics.wake(provider: target.provider, platform: target.platform, until: "register").recordSeconds(max(0, toRegister))
        metrics.wake(provider: target.provider, platform: target.platform, until: "invite").recordSeconds(max(0, toInvite))
        call.logger.debug("device woke", metadata: [
            "push.provider": "\(target.provider)", "push.selector": "\(target.selector)",
            "call.wake_ms": "\(Int((toInvite * 1000).rounded()))"])
    }

    // MARK: Hang-up

    /// A BYE sipwake relayed in a dialog it record-routed
    /// (`DialogRouter`): when it ends an answered call, that call's record
    /// gets its hang-up time and who hung up; in memory while the call is
    /// kept (its next saves keep it), else in the stored record.
    func hungUp(callID: String, fromTag: String?, toTag: String?) {
        let bye = CallHangUp(callID: callID, fromTag: fromTag, toTag: toTag, at: clock())
        guard let key = answeredCalls[callID], let call = calls[key] else {
            recorder.hungUp(bye)
            return
        }
        guard call.hangUp == nil, call.record.hangingUp(bye) != nil else { return }
        call.hangUp = bye
        call.logger.debug("call hung up", metadata: ["call.hung_up_by": "\(call.record.hungUpBy?.rawValue ?? "-")"])
        recorder.save(call.record, saved: &call.saved)
    }

    // MARK: Timers

    /// Called every tick: fires the deadlines that have passed.
    func tick() {
        let now = clock()
        stoppedBranches.tick(now: now)
        for key in calls.keys {
            guard let call = calls[key] else { continue }
            if let deadline = call.fork.nextDeadline, deadline <= now { deliver(key, .timer) }
            else if call.fork.isFinished { finish(key) }
        }
    }

    /// Shutdown: every call in progress ends `interrupted`. Its ringing
    /// branches are cancelled, the caller gets 503 with Retry-After (so the
    /// PBX routes elsewhere), its devices get their missed notifications now;
    /// calls that already ended stop waiting for their grace period. Each
    /// call is forgotten once its pushes are answered (`pendingCount`).
    func interruptAll() {
        for key in calls.keys { deliver(key, .shutdown) }
    }

    /// Forgets every call (the end of shutdown): one not yet interrupted is
    /// interrupted first; each record is saved as it stands.
    func closeAll() {
        interruptAll()
        for key in calls.keys { finish(key) }
    }

    // MARK: Events and actions

    private func deliver(_ key: String, _ event: ForkEvent) {
        queued.append((key, event))
        guard !draining else { return }
        draining = true
        while !queued.isEmpty {
            let (k, e) = queued.removeFirst()
            handle(k, e)
        }
        draining = false
    }

    private func handle(_ key: String, _ event: ForkEvent) {
        guard let call = calls[key] else { return }
        let wasOpen = call.fork.phase == .starting || call.fork.phase == .live
        let actions = call.fork.handle(event, now: clock())
        for action in actions { perform(action, call) }
        if wasOpen, call.fork.phase == .ended || call.fork.phase == .finished { ended(call) }
        switch event {
        case .start(_, let targets, let wakeupHold):
            let elapsed = ContinuousClock.now - call.request.receivedAt
            forkLatency.record(elapsed)
            metrics.forkLatency.record(duration: elapsed)
            if wakeupHold, settings.pushEnabled, targets != nil {
                // The tuples came from the index: the pushes went with the branches.
                pushLatency.record(elapsed)
                metrics.pushLatency.record(duration: elapsed)
            }
        case .tuplesLoaded:
            let elapsed = ContinuousClock.now - call.request.receivedAt
            pushLatency.record(elapsed)
            metrics.pushLatency.record(duration: elapsed)
        default:
            break
        }
        recorder.afterEvent(event, fork: call.fork, saved: &call.saved, record: call.record)
        if call.fork.isFinished {
            finish(key)
        } else if call.fork.phase == .ended {
            // The caller has its answer; the call lingers for its grace period.
            call.request.releaseTransaction()
        }
    }

    /// The caller has its final response: one line and one count per call.
    private func ended(_ call: PendingCall) {
        let record = call.fork.record
        let outcome = record.outcome ?? .interrupted
        metrics.ended[outcome]?.increment()
        // Numbers are logged as numbers: JSON logs carry them so.
        var metadata: Logger.Metadata = [
            "call.callee": "\(record.callee)", "call.outcome": "\(outcome.rawValue)",
            "call.pushes": .stringConvertible(record.pushes.count), "call.branches": .stringConvertible(record.branches.count)]
        if let status = record.finalStatus { metadata["call.status"] = .stringConvertible(status) }
        if outcome == .answered, let answered = record.endedAt {
            metadata["call.answer_ms"] = .stringConvertible(Int((answered.timeIntervalSince(record.startedAt) * 1000).rounded()))
        }
        call.logger.info("call ended", metadata: metadata)
    }

    private func finish(_ key: String) {
        guard let aor = calls[key]?.aor, let call = calls.remove(key, aor: aor) else { return }
        call.releaseBranches()
        if call.request.finalStatus == nil { call.request.reply(500, "Call Not Completed") }
        if answeredCalls[call.fork.record.callID] == key { answeredCalls[call.fork.record.callID] = nil }
        recorder.forgotten(fork: call.fork, saved: &call.saved, record: call.record)
    }

    private func perform(_ action: ForkAction, _ call: PendingCall) {
        switch action {
        case .fork(let id, let binding):
            sendBranch(id, to: binding, call)
        case .cancel(let id, let reason):
            call.branches[id]?.cancel(reason: forwarder.cancelReason(reason, callerReason: call.cancelReason))
        case .retire(let id, let reason):
            retire(id, reason: reason, call)
        case .relayProvisional(let id, _):
            if let response = call.provisional[id] { call.request.relay(response) }
        case .relayFinal(let id, let status):
            if let response = call.finals[id] {
                if (200..<300).contains(status), call.answerTag == nil {
                    // The first 2xx relayed answered the call: its dialog's BYE will end it.
                    call.answerTag = response.message?.toTag
                    answeredCalls[call.fork.record.callID] = call.key
                }
                call.request.relay(response)
            } else {
                call.request.reply(status)
            }
        case .respond(let status):
            call.request.reply(status, Self.phrase(status))
        case .respondShuttingDown:
            call.request.reply(503, "Shutting Down", tags: SofiaTagList().header("Retry-After", "5"))
        case .ringback:
            call.request.reply(180, "Ringing")
        case .push(let id, let target, let event):
            sendPush(id, target, event, call)
        case .deleteTuple(let tupleID):
            let logger = call.logger
            let failed = metrics.tupleFailures
            tuples.write { store in
                do { _ = try store.delete(id: tupleID) } catch {
                    failed.increment()
                    logger.warning("stale tuple not deleted", metadata: ["push.tuple_id": .stringConvertible(tupleID), "error": "\(error)"])
                }
            }
        case .missedCallMessage(let binding):
            sendMissedCallMessage(to: binding, call)
        }
    }

    private func sendBranch(_ id: BranchID, to binding: Binding, _ call: PendingCall) {
        guard let agent, let request = call.request.forwardCopy() else {
            queued.append((call.key, .localFinal(id, status: 503, reason: "not sent: the INVITE could not be copied")))
            return
        }
        let route = BindingRoute(binding)
        forwarder.prepare(
            request, for: binding, route: route, callID: call.request.message.callID ?? "",
            pairingID: call.pairingID, hasPushID: !call.request.message.unknownHeader("X-Push-ID").isEmpty,
            callerTransport: call.request.source.transport,
            callerToken: call.callerToken)
        let connection = route.connectionID.flatMap { agent.connections.connection(for: $0) }
        let key = call.key
        let branch = agent.fork(request, route: route.nextHop, connection: connection) { [weak self] status, response in
            self?.branchResponse(key, id, status: status, response: response)
        }
        if let branch {
            call.branches[id] = branch
            branchesSent += 1
            metrics.branches.increment()
            call.logger.debug("branch sent", metadata: ["sip.contact": "\(binding.contact)", "call.branch": "\(id)"])
        } else {
            metrics.branchFailures.increment()
            call.logger.warning("branch not sent", metadata: ["sip.contact": "\(binding.contact)", "call.branch": "\(id)"])
            let reason = route.connectionID != nil && connection == nil
                ? "not sent: the device's connection is gone" : "not sent: no route to the contact"
            queued.append((call.key, .localFinal(id, status: 503, reason: reason)))
        }
    }

    /// Stops a branch nothing has answered (see `SIPAgent.retire`); one
    /// that something came back on after all is cancelled the usual way.
    private func retire(_ id: BranchID, reason: CancelReason, _ call: PendingCall) {
        guard let branch = call.branches[id] else { return }
        let cancelReason = forwarder.cancelReason(reason, callerReason: call.cancelReason)
        let key = call.key
        let retired = agent?.retire(branch, reason: cancelReason) { [weak self] status, response in
            self?.retiredBranchResponse(key, id, status: status, response: response) ?? false
        } ?? false
        if retired {
            call.branches[id] = nil
            metrics.branchesRetired.increment()
        } else {
            branch.cancel(reason: cancelReason)
        }
    }

    /// The agent could not do what a stopped branch needed (see `SIPAgent.onRetiredBranchFailure`).
    func stoppedBranchFailed(_ failure: RetiredBranchFailure) {
        stoppedBranches.record(failure, now: clock())
    }

    /// A late response on a retired branch (its CANCEL or ACK already went
    /// out, or was reported not sent). Returns true when the call took a
    /// 2xx: it relays it upstream while it can (the call is live, or
    /// answered and every 2xx goes up).
    private func retiredBranchResponse(_ key: String, _ id: BranchID, status: Int, response: SIPResponse?) -> Bool {
        guard let call = calls[key] else { return false }
        call.logger.debug("late response on a stopped branch", metadata: ["sip.status": .stringConvertible(status), "call.branch": "\(id)"])
        guard (200..<300).contains(status) else {
            deliver(key, status < 200 ? .provisional(id, status: status) : .final(id, status: status))
            return false
        }
        guard call.fork.phase == .live || call.fork.record.outcome == .answered, let response else { return false }
        call.finals[id] = response
        deliver(key, .final(id, status: status))
        return true
    }

    private func branchResponse(_ key: String, _ id: BranchID, status: Int, response: SIPResponse?) {
        guard let call = calls[key] else { return }
        if status < 200 {
            if let response, status > 100 { call.provisional[id] = response }
            deliver(key, .provisional(id, status: status))
        } else {
            if let response, call.finals[id] == nil || (200..<300).contains(status) { call.finals[id] = response }
            // Sofia ended the transaction itself (no message, or one it
            // made): nothing came from the device.
            if response?.isSofiaMade ?? true {
                deliver(key, .localFinal(id, status: status, reason: Self.localReason(status)))
            } else {
                deliver(key, .final(id, status: status))
            }
        }
    }

    /// Why Sofia ended a branch with `status` without a response from the device.
    static func localReason(_ status: Int) -> String {
        switch status {
        case 408: return "no answer from the device in time (timer B)"
        case 503: return "the device could not be reached (transport error)"
        default: return "ended by sipwake without a response from the device"
        }
    }

    // MARK: Pushes

    private func sendPush(_ id: PushID, _ target: PushTarget, _ event: PushEvent, _ call: PendingCall) {
        let now = clock()
        let message = pushes.message(for: target, event, pairingID: call.pairingID, caller: call.caller,
                                     media: call.media, callee: call.fork.record.callee,
                                     callStartedAt: call.fork.record.startedAt, at: now,
                                     outcome: call.fork.record.outcome, calledNumber: call.calledNumber)
        let key = call.key
        let resume = self.resume
        // The webhook has no tuple to write its result on.
        let tupleID = target.isWebhook ? nil : target.tupleID
        let failure = pushes.send(message) { result in
            resume { proxy in proxy.pushCompleted(key, id, tupleID: tupleID, sentAt: now, result: result) }
        }
        if let failure {
            queued.append((key, .pushResult(id, failure)))
        } else {
            metrics.pushes.increment()
        }
    }

    private func pushCompleted(_ key: String, _ id: PushID, tupleID: Int64?, sentAt: Date, result: PushResult) {
        if let tupleID {
            pushes.recordOnTuple(result, tupleID: tupleID, sentAt: sentAt, at: clock(),
                                 logger: calls[key]?.logger ?? logger, failed: metrics.tupleFailures)
        }
        if result.kind != .delivered { metrics.pushFailures.increment() }
        deliver(key, .pushResult(id, result))
    }

    // MARK: Missed-call MESSAGE

    private func sendMissedCallMessage(to binding: Binding, _ call: PendingCall) {
        guard let agent else { return }
        let route = BindingRoute(binding)
        let tags = SofiaTagList()
            .requestLine("MESSAGE", binding.contact)
            .from("<sip:\(call.caller.user ?? "sipwake")@\(call.caller.domain ?? settings.domain)>;tag=\(UUID.random().uuidString.prefix(8))")
            .to("<sip:\(binding.aor)@\(settings.domain)>")
            .callID(UUID.random().uuidString)
            .cseq(1, "MESSAGE")
            .maxForwards(70)
            .header("X-Push-ID", call.pairingID)
            .header("Content-Type", "application/x-acro-missed-call")
        for value in route.routeHeaders { tags.header("Route", value) }
        let connection = route.connectionID.flatMap { agent.connections.connection(for: $0) }
        let metrics = self.metrics
        let sent = agent.sendRequest(tags: tags, route: route.nextHop, connection: connection) { status in
            if status >= 300 { metrics.messageFailures.increment() }
        }
        if !sent { metrics.messageFailures.increment() }
    }

    // MARK: Helpers

    static func flow(of source: BindingSource, trusted: Bool) -> BindingSource? {
        trusted ? nil : source
    }

    /// The INVITE's `X-Push-ID`, when it has a non-empty one.
    static func pushID(of message: SIPMessage) -> String? {
        message.unknownHeader("X-Push-ID").first.map { $0.trimmingCharacters(in: .whitespaces) }
            .flatMap { $0.isEmpty ? nil : $0 }
    }

    static func unquote(_ s: String) -> String {
        s.count >= 2 && s.hasPrefix("\"") && s.hasSuffix("\"") ? String(s.dropFirst().dropLast()) : s
    }

    static func phrase(_ status: Int) -> String {
        switch status {
        case 404: return "Not Found"
        case 408: return "Request Timeout"
        case 480: return "Temporarily Unavailable"
        case 486: return "Busy Here"
        case 487: return "Request Terminated"
        case 500: return "Server Internal Error"
        case 503: return "Service Unavailable"
        case 600: return "Busy Everywhere"
        case 603: return "Decline"
        default: return "Call Failed"
        }
    }
}
