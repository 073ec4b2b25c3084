import Foundation
import Model

/// The state machine of one incoming call to a local user: pushes to the
/// callee's devices, branches to its contacts, late forking while the wake
/// window is open, and the endings that tell every device the call is over.
///
/// Pure: `handle(_:now:)` takes an event and the time and returns the actions
/// the proxy must carry out. No I/O, no clock of its own. The transition table
/// is in docs/forking.md; the tests in ForkingTests check each row.
public struct CallFork: Sendable {
    public let settings: ForkSettings
    /// The story of the call so far, for `sipwake calls show`.
    public private(set) var record: CallRecord
    public private(set) var phase: ForkPhase = .starting

    private var wakeupHold = true
    /// The device tuples are being read: a pushed device may yet register.
    private var tuplesPending = false
    private var windowDeadline: Date?
    /// Retries waiting for the provider's `Retry-After` to pass, earliest first.
    private var delayedRetries: [(at: Date, target: PushTarget, event: PushEvent)] = []
    private var graceDeadline: Date?
    private var targets: [PushTarget] = []
    private var goneTuples: Set<Int64> = []
    private var pushes: [PushID: PushAttempt] = [:]
    private var nextPushID: PushID = 1
    private var branches: [BranchID: ForkBranch] = [:]
    private var nextBranchID: BranchID = 1
    /// The callee's contacts now, one per device.
    private var devices: [BindingKey: Binding] = [:]
    private var answeredDevice: BindingKey?
    /// Devices already sent the missed-call MESSAGE.
    private var messaged: Set<BindingKey> = []
    private var ringbackSent = false
    /// sipwake is shutting down: no grace period, no deadline; the call is
    /// finished once no push of it is in flight.
    private var shuttingDown = false
    private var actions: [ForkAction] = []
    private var now = Date(timeIntervalSince1970: 0)

    public init(recordID: String, pairingID: String, callID: String, callee: String, caller: CallerInfo,
                settings: ForkSettings, now: Date) {
        self.settings = settings
        self.record = CallRecord(id: recordID, pairingID: pairingID, callID: callID, callee: callee,
                                 caller: caller.uri, callerDisplayName: caller.displayName, startedAt: now)
        self.now = now
        note("invite received", caller.uri)
    }

    /// When the proxy must send `.timer`: the wake window's end while the call
    /// is live, the grace period's end after it ended. None while shutting
    /// down: the proxy bounds that wait itself.
    public var nextDeadline: Date? {
        if shuttingDown { return nil }
        switch phase {
        case .starting: return nil
        case .live:
            guard let first = delayedRetries.first?.at else { return windowDeadline }
            return windowDeadline.map { min($0, first) } ?? first
        case .ended:
            guard let grace = graceDeadline, let ended = record.endedAt else { return nil }
            return branchesClosed ? grace : max(grace, ended.addingTimeInterval(Self.branchDrain))
        case .finished: return nil
        }
    }

    public var isFinished: Bool { phase == .finished }

    /// Takes one event; returns what to do, in order.
    public mutating func handle(_ event: ForkEvent, now: Date) -> [ForkAction] {
        self.now = now
        actions = []
        switch event {
        case .start(let bindings, let targets, let wakeupHold):
            start(bindings: bindings, targets: targets, wakeupHold: wakeupHold)
        case .tuplesLoaded(let targets):
            tuplesLoaded(targets)
        case .provisional(let id, let status):
            provisional(id, status)
        case .final(let id, let status):
            final(id, status)
        case .localFinal(let id, let status, let reason):
            if branches[id]?.final == nil { updateBranchRecord(id) { $0.finalReason = reason } }
            final(id, status)
        case .callerCancelled(let answeredElsewhere):
            callerCancelled(answeredElsewhere: answeredElsewhere)
        case .bindingAdded(let binding):
            registered(binding, replacing: nil)
        case .bindingRefreshed(let old, let new):
            registered(new, replacing: old)
        case .bindingRemoved(let binding):
            removed(binding)
        case .pushResult(let id, let delivery):
            pushResult(id, delivery)
        case .timer:
            timer()
        case .shutdown:
            shutdown()
        }
        return actions
    }

    // MARK: Start

    private mutating func start(bindings: [Binding], targets: [PushTarget]?, wakeupHold: Bool) {
        guard phase == .starting else { return }
        phase = .live
        self.wakeupHold = wakeupHold
        self.targets = wakeupHold ? targets ?? [] : []
        tuplesPending = wakeupHold && targets == nil
        windowDeadline = now.addingTimeInterval(settings.wakeWindow)
        note("contacts looked up", "contacts=\(bindings.count) wakeup-hold=\(wakeupHold ? "on" : "off")")
        for binding in bindings {
            let device = Self.device(of: binding)
            guard devices[device] == nil else { continue }
            devices[device] = binding
            fork(binding, device: device, reason: "registered")
        }
        if !tuplesPending { pushDevices() }
    }

    private mutating func tuplesLoaded(_ targets: [PushTarget]) {
        guard tuplesPending else { return }
        tuplesPending = false
        // A call decided before its tuples were read pushes nobody.
        guard phase == .live else { return }
        self.targets = targets
        pushDevices()
    }

    /// Wakes every device tuple, once the tuples are known, and answers at
    /// once when there is nothing to ring or wake.
    private mutating func pushDevices() {
        let webhooks = targets.filter(\.isWebhook).count
        note("device tuples looked up", "tuples=\(targets.count - webhooks)" + (webhooks > 0 ? " webhook=on" : ""))
        for target in targets where target.canReceive(.incomingCall) {
            push(target, .incomingCall, attempt: 1)
        }
        if settings.ringbackOnPush, !pushes.isEmpty, !ringbackSent {
            ringbackSent = true
            actions.append(.ringback)
            note("ringback sent")
        }
        if branches.isEmpty && targets.isEmpty {
            // The PBX routes on at once, as after the wake window (`calls.timeout_status`).
            end(.noDevices, respond: settings.timeoutStatus, notify: nil)
            return
        }
        settleIfNothingCanChange()
    }

    // MARK: Branch responses

    private mutating func provisional(_ id: BranchID, _ status: Int) {
        guard var branch = branches[id], branch.final == nil, status >= 100, status < 200 else { return }
        if status == 100 {
            branches[id]?.trying = true
            return
        }
        if branch.provisional == nil {
            branch.provisional = status
            branches[id] = branch
            let at = now
            updateBranchRecord(id) { $0.provisionalStatus = status; $0.provisionalAt = at }
            note("branch ringing", "branch=\(id) status=\(status)")
            if branch.retired {
                // Its CANCEL goes out now (the proxy holds it for this moment).
                note("branch cancelled", "branch=\(id) reason=\(branch.cancelled?.rawValue ?? "stopped") (it rang after it was stopped)")
            }
        }
        if phase == .live && branch.cancelled == nil {
            actions.append(.relayProvisional(id, status: status))
        }
    }

    private mutating func final(_ id: BranchID, _ status: Int) {
        guard var branch = branches[id] else { return }
        let success = (200..<300).contains(status)
        if branch.final != nil {
            // Every 2xx goes upstream, retransmissions included (RFC 3261 §16.7 step 5).
            if success && record.outcome == .answered { actions.append(.relayFinal(id, status: status)) }
            return
        }
        branch.final = status
        branches[id] = branch
        let at = now
        // A retired branch answered after all: the device's answer replaces the reason it had none.
        let fromDevice = branch.retired
        updateBranchRecord(id) {
            $0.finalStatus = status
            $0.endedAt = at
            if fromDevice { $0.finalReason = nil }
        }
        note("branch final", "branch=\(id) status=\(status)")
        switch phase {
        case .live:
            if success {
                answered(branch, status)
            } else if status >= 600 && branch.cancelled == nil {
                declined(branch, status)
            } else {
                settleIfNothingCanChange()
            }
        case .ended where success && record.outcome == .answered:
            // A second device answered too: its 2xx goes upstream as well,
            // and the caller hangs up the extra dialog.
            actions.append(.relayFinal(id, status: status))
        case .ended where success:
            note("late answer after the call ended", "branch=\(id)")
        default:
            break
        }
        finishIfQuiet()
    }

    private mutating func answered(_ branch: ForkBranch, _ status: Int) {
        decided(by: branch, status, cancelling: .answeredElsewhere, outcome: .answered,
                notify: .answeredElsewhere, messages: false)
    }

    private mutating func declined(_ branch: ForkBranch, _ status: Int) {
        decided(by: branch, status, cancelling: .declined, outcome: .declined, notify: .missed, messages: true)
    }

    /// A device decided the call (2xx or 6xx): its response goes upstream,
    /// the other branches are cancelled and the other devices told.
    private mutating func decided(by branch: ForkBranch, _ status: Int, cancelling reason: CancelReason,
                                  outcome: CallOutcome, notify event: PushEvent, messages: Bool) {
        actions.append(.relayFinal(branch.id, status: status))
        answeredDevice = branch.device
        record.answeredBy = branch.binding.contact
        cancelBranches(except: branch.id, reason: reason)
        end(outcome, respond: nil, notify: event, excluding: branch.device, messages: messages)
        record.finalStatus = status
    }

    // MARK: Caller

    private mutating func callerCancelled(answeredElsewhere: Bool) {
        guard phase == .starting || phase == .live else { return }
        note("caller cancelled", answeredElsewhere ? "reason=answered elsewhere" : nil)
        cancelBranches(except: nil, reason: .callerCancelled)
        if answeredElsewhere {
            end(.answeredElsewhere, respond: 487, notify: .answeredElsewhere, messages: false)
        } else {
            end(.cancelled, respond: 487, notify: .missed, messages: true)
        }
    }

    // MARK: Registrations

    private mutating func registered(_ binding: Binding, replacing old: Binding?) {
        let device = Self.device(of: binding)
        if let old { devices[Self.device(of: old)] = nil }
        devices[device] = binding
        switch phase {
        case .starting, .finished:
            return
        case .ended:
            sendGraceMessage(binding, device: device)
            return
        case .live:
            break
        }
        note(old == nil ? "contact registered" : "contact re-registered", binding.contact)
        // Without the wake-up hold only the contacts known at the start ring.
        guard wakeupHold else { return }
        let previous = branches.values.filter { $0.device == device && $0.cancelled != .replaced }.max { $0.id < $1.id }
        guard let previous else {
            fork(binding, device: device, reason: "late-register")
            return
        }
        // A device that rang (or answered) keeps its branch; one that never
        // sent a provisional response gets a new INVITE, and its old branch
        // is retired so it never has two.
        guard previous.provisional == nil else { return }
        if previous.isLive {
            cancel(previous.id, reason: .replaced)
        }
        fork(binding, device: device, reason: "re-register")
    }

    private mutating func removed(_ binding: Binding) {
        let device = Self.device(of: binding)
        devices[device] = nil
        guard phase == .live else { return }
        note("contact removed", binding.contact)
        for branch in branches.values where branch.device == device && branch.isLive && branch.provisional == nil {
            cancel(branch.id, reason: .unregistered)
        }
        settleIfNothingCanChange()
    }

    // MARK: Pushes

    private mutating func pushResult(_ id: PushID, _ result: PushResult) {
        guard var attempt = pushes[id], attempt.result == nil else { return }
        attempt.result = result
        pushes[id] = attempt
        let index = attempt.recordIndex
        let delivered = result.kind == .delivered
        record.pushes[index].completedAt = now
        // A delivered push is recorded with its status only (200 when the transport had none).
        record.pushes[index].httpStatus = delivered ? (result.httpStatus ?? 200) : result.httpStatus
        record.pushes[index].result = result.name
        record.pushes[index].detail = delivered ? nil : result.detail
        note(attempt.target.isWebhook ? "webhook answered" : "push answered", "push=\(id) result=\(result.name)")
        switch result.kind {
        case .tokenGone where attempt.target.isWebhook:
            // The backend knows no device of this user: nothing to wait
            // for, nothing to tell at the end, and no tuple to delete.
            if goneTuples.insert(attempt.target.tupleID).inserted {
                note("webhook: no device for the user", "push=\(id)")
            }
        case .tokenGone:
            let tupleID = attempt.target.tupleID
            if goneTuples.insert(tupleID).inserted {
                actions.append(.deleteTuple(tupleID))
                note("stale token, tuple deleted", "tuple=\(tupleID)")
            }
        case .retryable where attempt.attempt == 1 && phase == .live && attempt.event == .incomingCall:
            if let wait = result.retryAfter, wait > 0 {
                let at = now.addingTimeInterval(wait)
                if let deadline = windowDeadline, at >= deadline {
                    note("push not retried", "push=\(id) retry-after=\(Int(wait.rounded(.up)))s is past the wake window")
                } else {
                    delayedRetries.append((at, attempt.target, attempt.event))
                    delayedRetries.sort { $0.at < $1.at }
                    note("push retry scheduled", "push=\(id) retry-after=\(Int(wait.rounded(.up)))s")
                }
            } else {
                push(attempt.target, attempt.event, attempt: 2)
            }
        default:
            break
        }
        if phase == .live { settleIfNothingCanChange() }
        if shuttingDown { finishIfQuiet() }
    }

    private mutating func push(_ target: PushTarget, _ event: PushEvent, attempt: Int) {
        let id = nextPushID
        nextPushID += 1
        // A webhook attempt is recorded under its event type (`call.mobile_push_wakeup`).
        let webhookType = target.isWebhook ? CallWebhookType(event: event, outcome: record.outcome) : nil
        let verb = webhookType?.rawValue ?? event.recordName
        record.pushes.append(CallPushRecord(id: id, tupleID: target.tupleID, selector: target.selector,
                                            verb: verb, attempt: attempt, sentAt: now))
        pushes[id] = PushAttempt(target: target, event: event, attempt: attempt, recordIndex: record.pushes.count - 1)
        actions.append(.push(id, target, event))
        note(target.isWebhook ? "webhook sent" : "push sent",
             "push=\(id) verb=\(verb) selector=\(target.selector) attempt=\(attempt)")
    }

    /// A pushed device may still wake and register: its incoming-call push
    /// was delivered, is in flight, or will be retried.
    private var mayStillRegister: Bool {
        guard wakeupHold else { return false }
        if tuplesPending || !delayedRetries.isEmpty { return true }
        return pushes.values.contains { attempt in
            guard attempt.event == .incomingCall, !goneTuples.contains(attempt.target.tupleID) else { return false }
            return attempt.result.map { $0.kind == .delivered } ?? true
        }
    }

    /// The first incoming-call push of this call that went to the device
    /// `binding` is (by instance id, push token or selector, as
    /// `PushTarget.isDevice` tells), and when it was sent: the push that
    /// woke it, when it registers during the call.
    public func incomingCallPush(reaching binding: Binding) -> (target: PushTarget, sentAt: Date)? {
        let token = settings.contactPushToken(binding.contact)
        return pushes.values
            .filter { $0.event == .incomingCall && $0.target.isDevice(of: binding, contactToken: token) }
            .min { $0.recordIndex < $1.recordIndex }
            .map { ($0.target, record.pushes[$0.recordIndex].sentAt) }
    }

    // MARK: Timers

    private mutating func timer() {
        switch phase {
        case .live:
            while let due = delayedRetries.first, due.at <= now {
                delayedRetries.removeFirst()
                if !goneTuples.contains(due.target.tupleID) { push(due.target, due.event, attempt: 2) }
            }
            guard let deadline = windowDeadline, now >= deadline else { return }
            note("wake window closed")
            cancelBranches(except: nil, reason: .noAnswer)
            end(.noAnswer, respond: settings.timeoutStatus, notify: .missed, messages: true)
        case .ended:
            finishIfQuiet()
        case .starting, .finished:
            break
        }
    }

    // MARK: Shutdown

    /// sipwake is stopping: a call in progress ends `interrupted` (its
    /// branches cancelled, 503 upstream, its devices told now, since nobody
    /// will be there to tell them later); an ended call stops waiting for its
    /// grace period. Either is finished once its pushes are answered.
    private mutating func shutdown() {
        guard !shuttingDown, phase != .finished else { return }
        shuttingDown = true
        note("shutting down")
        switch phase {
        case .starting, .live:
            cancelBranches(except: nil, reason: .shutdown)
            actions.append(.respondShuttingDown)
            record.finalStatus = 503
            end(.interrupted, respond: nil, notify: .missed, messages: true)
        case .ended:
            graceDeadline = now
            finishIfQuiet()
        case .finished:
            break
        }
    }

    /// A push sent and not yet answered.
    private var pushInFlight: Bool {
        pushes.values.contains { $0.result == nil }
    }

    // MARK: Endings

    /// Every branch is final and no pushed device can still register (or the
    /// window is closed): answer now with the best response.
    private mutating func settleIfNothingCanChange() {
        guard phase == .live else { return }
        guard !branches.values.contains(where: \.isLive) else { return }
        if mayStillRegister, let deadline = windowDeadline, now < deadline { return }
        let finals = branches.values.filter { $0.cancelled == nil }.compactMap { b in b.final.map { (id: b.id, status: $0) } }
        // A backend that knows no device of the user adds none.
        let deviceless = targets.allSatisfy { $0.isWebhook && goneTuples.contains($0.tupleID) }
        let outcome: CallOutcome = branches.isEmpty && deviceless ? .noDevices : .unreachable
        guard let best = BestResponse.pick(finals) else {
            end(outcome, respond: settings.timeoutStatus, notify: .missed, messages: true)
            return
        }
        let status = BestResponse.upstreamStatus(best.status)
        if status == best.status {
            actions.append(.relayFinal(best.id, status: status))
            end(outcome, respond: nil, notify: .missed, messages: true)
            record.finalStatus = status
        } else {
            end(outcome, respond: status, notify: .missed, messages: true)
        }
    }

    /// Ends the call: answers the caller (unless a response was relayed),
    /// tells the other devices, and starts the grace period.
    private mutating func end(_ outcome: CallOutcome, respond status: Int?, notify event: PushEvent?,
                              excluding excluded: BindingKey? = nil, messages: Bool = false) {
        if let status {
            actions.append(.respond(status: status))
            record.finalStatus = status
        }
        phase = .ended
        // A push that waited for its Retry-After is no use once the call ended.
        delayedRetries.removeAll()
        record.outcome = outcome
        record.endedAt = now
        note("call ended", "outcome=\(outcome.rawValue)")
        if let event {
            notifyDevices(event, excluding: excluded, messages: messages)
        }
        let devicesWereWoken = pushes.values.contains { $0.event == .incomingCall }
        if !shuttingDown && devicesWereWoken && settings.missedCallGrace > 0 && settings.endNotification.sendsMessage {
            graceDeadline = now.addingTimeInterval(settings.missedCallGrace)
        } else {
            graceDeadline = now
        }
        finishIfQuiet()
    }

    /// After the end, the call is kept until its grace period is over and
    /// every branch has its final response (a device that answers a cancelled
    /// branch still gets its 2xx through), at most `branchDrain` seconds.
    /// While shutting down, only the pushes in flight are waited for.
    private mutating func finishIfQuiet() {
        guard phase == .ended, let grace = graceDeadline, let ended = record.endedAt else { return }
        if shuttingDown {
            if !pushInFlight { phase = .finished }
            return
        }
        if now >= grace && (branchesClosed || now >= ended.addingTimeInterval(Self.branchDrain)) {
            phase = .finished
        }
    }

    /// Every branch has its final response or was stopped silent.
    private var branchesClosed: Bool {
        !branches.values.contains { !$0.isClosed }
    }

    /// How long an ended call waits for its cancelled branches (RFC 3261 Timer B, 64×T1).
    public static let branchDrain: TimeInterval = 32

    private mutating func notifyDevices(_ event: PushEvent, excluding excluded: BindingKey?, messages: Bool) {
        let excludedBinding = excluded.flatMap { key in branches.values.first { $0.device == key }?.binding }
        let excludedToken = excludedBinding.flatMap { settings.contactPushToken($0.contact) }
        if settings.endNotification.sendsPush {
            // Devices whose incoming-call push went out (delivered or unanswered).
            let woken = Set(pushes.values.filter { attempt in
                guard attempt.event == .incomingCall else { return false }
                return attempt.result.map { $0.kind == .delivered } ?? true
            }.map(\.target.tupleID))
            for target in targets where woken.contains(target.tupleID) && !goneTuples.contains(target.tupleID) {
                if let excludedBinding, target.isDevice(of: excludedBinding, contactToken: excludedToken) { continue }
                if target.isSwitchedOff(event) {
                    note("push switched off", "verb=\(event.recordName) selector=\(target.selector)")
                } else if target.canReceive(event) {
                    push(target, event, attempt: 1)
                }
            }
        }
        guard messages && settings.endNotification.sendsMessage else { return }
        for (device, binding) in devices.sorted(by: { $0.value.contact < $1.value.contact }) where device != excluded {
            messaged.insert(device)
            actions.append(.missedCallMessage(binding))
            note("missed-call message sent", binding.contact)
        }
    }

    /// After the end, a device that registers gets the missed-call MESSAGE
    /// once, unless it answered or its branch rang (it saw the CANCEL).
    private mutating func sendGraceMessage(_ binding: Binding, device: BindingKey) {
        guard let deadline = graceDeadline, now < deadline, settings.endNotification.sendsMessage,
              device != answeredDevice, !messaged.contains(device),
              !branches.values.contains(where: { $0.device == device && $0.provisional != nil }) else { return }
        messaged.insert(device)
        actions.append(.missedCallMessage(binding))
        note("missed-call message sent", "\(binding.contact) (registered after the end)")
    }

    // MARK: Branches

    private mutating func fork(_ binding: Binding, device: BindingKey, reason: String) {
        let id = nextBranchID
        nextBranchID += 1
        branches[id] = ForkBranch(id: id, device: device, binding: binding)
        record.branches.append(CallBranchRecord(id: id, contact: binding.contact, instanceID: binding.instanceID,
                                                reason: reason, startedAt: now))
        actions.append(.fork(id, binding))
        note("branch sent", "branch=\(id) reason=\(reason) contact=\(binding.contact)")
    }

    private mutating func cancelBranches(except kept: BranchID?, reason: CancelReason) {
        for id in branches.keys.sorted() where id != kept && branches[id]?.isLive == true {
            cancel(id, reason: reason)
        }
    }

    /// Ends a live branch: a CANCEL when the device has answered it at all;
    /// when nothing came back, the INVITE is stopped instead (a CANCEL would
    /// have to wait for a provisional response while the INVITE kept being
    /// retransmitted, RFC 3261 §9.1), so a device never has two INVITEs
    /// alive, and the branch is closed in the record with the reason.
    private mutating func cancel(_ id: BranchID, reason: CancelReason) {
        guard var branch = branches[id] else { return }
        branch.cancelled = reason
        if branch.isSilent {
            branch.retired = true
            branches[id] = branch
            let at = now
            let why = Self.retiredReason(reason)
            updateBranchRecord(id) {
                $0.cancelled = reason.rawValue
                $0.finalReason = why
                $0.endedAt = at
            }
            actions.append(.retire(id, reason))
            note("branch stopped", "branch=\(id) reason=\(reason.rawValue) (no response from the device)")
        } else {
            branches[id] = branch
            updateBranchRecord(id) { $0.cancelled = reason.rawValue }
            actions.append(.cancel(id, reason))
            note("branch cancelled", "branch=\(id) reason=\(reason.rawValue)")
        }
    }

    /// Why a silent branch has no final response, for the record.
    public static func retiredReason(_ reason: CancelReason) -> String {
        switch reason {
        case .replaced: return "no response from the device; its INVITE was stopped for the new one"
        case .unregistered: return "no response from the device; its INVITE was stopped when it unregistered"
        default: return "no response from the device; its INVITE was stopped when the call ended"
        }
    }

    private mutating func updateBranchRecord(_ id: BranchID, _ change: (inout CallBranchRecord) -> Void) {
        guard let index = record.branches.firstIndex(where: { $0.id == id }) else { return }
        change(&record.branches[index])
    }

    private mutating func note(_ event: String, _ detail: String? = nil) {
        record.events.append(CallEventRecord(at: now, event: event, detail: detail))
    }

    /// One device, one branch: a device is its `+sip.instance` (whatever its
    /// reg-id or address), or else its Contact URI.
    static func device(of binding: Binding) -> BindingKey {
        BindingKey(instanceID: binding.instanceID, regID: nil, contact: binding.contact)
    }
}
