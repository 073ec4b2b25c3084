import Foundation
import Logging
import Metrics
import Model
import Ports
import Registrar
import SIPCore

/// RFC 8599 in the registrar: a REGISTER whose Contact carries `pn-provider`,
/// `pn-prid` and `pn-param` makes that device a push target of its user (a
/// device tuple, which every call to the user pushes, and which outlives the
/// binding until the device unregisters or its token is gone); an unknown
/// service is answered 555; the 200 OK says what is supported in
/// `Feature-Caps`; before the binding expires the device gets a
/// binding-refresh push, sent again when the phone does not re-register.
///
/// Owned by the registrar, used on the SIP loop only; the tuple writes run
/// on the device-tuple queue and their results come back through the
/// registrar's `resume`.
final class PNSRegistrations {
    /// Replaced by a reload when `[apps.*]` change.
    var directory: PNSDirectory
    private var schedule: BindingRefreshSchedule
    private let tuples: DeviceTupleQueue
    private let sender: (any PushSender)?
    private let logger: Logger
    private let metrics: PNSMetrics
    private let clock: @Sendable () -> Date
    /// Runs a closure back on the SIP loop.
    private let resume: @Sendable (@escaping @Sendable (PNSRegistrations) -> Void) -> Void
    /// Each scheduled device's refresh target; a device leaves it when it leaves the schedule.
    private var targets: [BindingRefreshKey: PNSRefreshTarget] = [:]
    /// The most RFC 8599 push targets one user keeps.
    private let maxTargetsPerUser: Int

    /// The providers that carry binding-refresh pushes.
    static let refreshProviders: Set<String> = ["apns", "fcm"]

    /// How long a binding-refresh push is worth delivering.
    static let refreshPushLifetime: TimeInterval = 60

    init(directory: PNSDirectory, refreshBefore: Int, refreshRetries: Int, maxTargetsPerUser: Int, tuples: DeviceTupleQueue,
         sender: (any PushSender)?, logger: Logger, metrics: any MetricsFactory, clock: @escaping @Sendable () -> Date,
         resume: @escaping @Sendable (@escaping @Sendable (PNSRegistrations) -> Void) -> Void) {
        self.directory = directory
        self.maxTargetsPerUser = maxTargetsPerUser
        self.schedule = BindingRefreshSchedule(before: TimeInterval(refreshBefore), retries: refreshRetries)
        self.tuples = tuples
        self.sender = sender
        self.logger = logger
        self.metrics = PNSMetrics(factory: metrics)
        self.clock = clock
        self.resume = resume
    }

    /// The devices with a refresh schedule.
    var deviceCount: Int { schedule.count }

    // MARK: REGISTER

    /// What a REGISTER asks of the push targets, or why it is refused (555).
    /// `current` are the AOR's live bindings: a device without
    /// `+sip.instance` that registers from a new address with the same
    /// `pn-prid` is the same device, so its old binding is removed in the
    /// same request (`request` gets that contact with expires 0).
    enum Check {
        case accept(request: RegisterRequest, work: [PNSWork])
        /// 555: the service or its app is not supported.
        case reject(reason: String)
        /// 400: a push parameter is malformed.
        case invalid(reason: String)
    }

    func check(_ request: RegisterRequest, current: [Binding], policy: RegistrarPolicy, now: Date) -> Check {
        var work: [PNSWork] = []
        let pushed = current.compactMap { binding in Self.selector(of: binding).map { (binding: binding, selector: $0) } }
        if request.isWildcard {
            // `Contact: *` removes every binding, and with them the push targets.
            return .accept(request: request, work: pushed.map { .remove(selector: $0.selector) })
        }
        var request = request
        var replaced: [ContactSpec] = []
        var dropped: [String] = []
        for contact in request.contacts {
            let interval = min(contact.expires ?? request.expiresHeader ?? policy.defaultExpires, policy.maxExpires)
            var selector: String?
            if let push = contact.push {
                switch directory.resolve(push) {
                case .unsupported(let reason):
                    return .reject(reason: reason)
                case .invalid(let reason):
                    return .invalid(reason: reason)
                case .reported:
                    break
                case .noDevice(let reason):
                    // `pn-provider` alone asks whether the service is supported;
                    // a token sipwake cannot use promises nothing.
                    if push.prid == nil {
                        work.append(.query(pns: push.provider))
                    } else {
                        logger.debug("push parameters name no device", metadata: [
                            "sip.aor": "\(request.aor)", "pns.reason": "\(reason)"])
                    }
                case .device(let device):
                    guard let own = push.selector(aor: request.aor, instanceID: contact.instanceID) else { break }
                    selector = own
                    if interval <= 0 {
                        work.append(.remove(selector: own))
                        break
                    }
                    work.append(.store(selector: own, device: device, push: push,
                                       expiresAt: now.addingTimeInterval(TimeInterval(interval))))
                    guard contact.instanceID == nil else { break }
                    for old in pushed where old.binding.instanceID == nil && old.binding.key != contact.key
                        && old.selector == own {
                        replaced.append(ContactSpec(uri: old.binding.contact, expires: 0))
                    }
                }
            }
            // The binding this contact refreshes or removes was a push target
            // under another selector, or the phone no longer asks for pushes
            // (or unregisters by its instance id alone): that target goes.
            for old in pushed where old.binding.key == contact.key && old.selector != selector {
                dropped.append(old.selector)
            }
        }
        for selector in dropped where !work.contains(where: { $0.selector == selector }) {
            work.append(.remove(selector: selector))
        }
        request.contacts.append(contentsOf: replaced.filter { spec in !request.contacts.contains { $0.key == spec.key } })
        return .accept(request: request, work: work)
    }

    /// `Feature-Caps` of a 555: the services sipwake supports (RFC 6809 list).
    var unsupportedFeatureCaps: String? {
        let services = directory.services
        return services.isEmpty ? nil : "*;+sip.pns=\"\(services.joined(separator: ","))\""
    }

    /// Counts and logs a REGISTER refused with 555.
    func refused(_ reason: String, aor: String) {
        metrics.unsupported.increment()
        logger.warning("register refused: push service not supported", metadata: [
            "sip.aor": "\(aor)", "pns.reason": "\(reason)"])
    }

    /// Stores the push targets `work` names, off the loop; `completion` is
    /// called there with the tuple of each stored selector, or the error.
    /// A user who is not in the database (authentication is off) gets no
    /// push target: that is no error, the tuple is missing. A device whose
    /// app already reported a tuple with this token (through the reporter or
    /// the admin API) keeps that tuple, which knows more (both its tokens,
    /// the account's selector): the REGISTER only pairs with it.
    func store(aor: String, work: [PNSWork], now: Date,
               completion: @escaping @Sendable (Result<[String: DeviceTuple], any Error>) -> Void) {
        let logger = self.logger
        let limit = maxTargetsPerUser
        let failed = metrics.storeFailed
        tuples.write { store in
            var tuples: [String: DeviceTuple] = [:]
            do {
                for item in work {
                    switch item {
                    case .store(let selector, let device, _, _):
                        let reported = try store.list(username: aor, limit: 1000, offset: 0).first {
                            $0.selector != selector && ($0.tokenCalls == device.tokenCalls || $0.tokenOther == device.tokenCalls)
                        }
                        if let reported {
                            tuples[selector] = reported
                            continue
                        }
                        do {
                            let other = device.tokenOther
                            let (tuple, _) = try store.report(
                                username: aor, selector: selector, appIDCalls: device.app.appID,
                                tokenCalls: device.tokenCalls, appIDOther: other == nil ? nil : device.app.appID,
                                tokenOther: other, platform: device.platform, provider: device.app.provider, now: now)
                            tuples[selector] = tuple
                            try Self.keepNewest(limit, of: aor, in: store)
                        } catch StorageError.userNotFound {
                            failed.increment()
                            logger.warning("push target not stored: the user is not in the database",
                                           metadata: ["sip.aor": "\(aor)"])
                        }
                    case .remove(let selector):
                        _ = try store.remove(username: aor, selector: selector)
                    case .query:
                        continue
                    }
                }
                completion(.success(tuples))
            } catch {
                failed.increment()
                logger.warning("push target not stored", metadata: ["sip.aor": "\(aor)", "error": "\(error)"])
                completion(.failure(error))
            }
        }
    }

    /// A user keeps at most `limit` RFC 8599 push targets, the most recently
    /// registered: every call pushes each of them, so a phone that keeps
    /// registering new tokens must not make one INVITE into hundreds of
    /// pushes. Tuples reported by apps are not counted.
    private static func keepNewest(_ limit: Int, of aor: String, in store: any TupleRepository) throws {
        let own = try store.list(username: aor, limit: 10_000, offset: 0)
            .filter { $0.selector.hasPrefix(SIPPushParameters.selectorPrefix) }
        guard own.count > limit else { return }
        let oldest = own.sorted { ($0.lastSeenAt, $0.id) > ($1.lastSeenAt, $1.id) }.dropFirst(limit)
        _ = try store.delete(ids: oldest.map(\.id))
    }

    /// The REGISTER's push targets are stored (`tuples`, by selector): the
    /// refresh schedule learns them. Returns the 200 OK's `Feature-Caps`.
    func stored(aor: String, work: [PNSWork], tuples: [String: DeviceTuple], now: Date) -> String? {
        var caps: [String] = []
        for item in work {
            switch item {
            case .query(let pns):
                if caps.isEmpty { caps.append("+sip.pns=\"\(pns)\"") }
            case .remove(let selector):
                let key = BindingRefreshKey(aor: aor, selector: selector)
                schedule.removed(key)
                targets[key] = nil
            case .store(let selector, _, let push, let expiresAt):
                guard let tuple = tuples[selector] else { continue }
                let key = BindingRefreshKey(aor: aor, selector: selector)
                if let purr = push.purr, let answered = schedule.device(withPURR: purr, of: aor) {
                    metrics.refreshAnswered.increment()
                    logger.debug("binding refreshed after its push", metadata: [
                        "sip.aor": "\(aor)", "pns.purr": "\(purr)"])
                    if answered != key {
                        // The device came back under another selector (a new token without instance id).
                        schedule.removed(answered)
                        targets[answered] = nil
                    }
                }
                let (purr, refreshed) = schedule(key, tuple: tuple, expiresAt: expiresAt, now: now)
                // With several push contacts in one REGISTER, the first device's.
                guard !caps.contains(where: { $0.hasPrefix("+sip.pnspurr") }) else { continue }
                caps = ["+sip.pns=\"\(push.provider)\""]
                if refreshed {
                    let lead = Int(schedule.lead(expiresAt: expiresAt, now: now).rounded(.up))
                    caps.append("+sip.pnsreg=\"\(lead)\"")
                }
                caps.append("+sip.pnspurr=\"\(purr)\"")
            }
        }
        return caps.isEmpty ? nil : "*;" + caps.joined(separator: ";")
    }

    /// Puts `key` on the refresh schedule with its tuple's refresh target.
    /// Only a device with a token for it gets refresh pushes (never an iOS
    /// VoIP token), and only through APNs or FCM: the Acrobits gateway and
    /// webhooks have no refresh push. Returns its PRID-URR and whether it
    /// will be pushed.
    private func schedule(_ key: BindingRefreshKey, tuple: DeviceTuple, expiresAt: Date,
                          now: Date) -> (purr: String, refreshed: Bool) {
        let direct = Self.refreshProviders.contains(tuple.provider)
        let other = tuple.tokenOther.flatMap { $0 == tuple.tokenCalls && tuple.provider == "apns" ? nil : $0 }
            .flatMap { direct ? $0 : nil }
        targets[key] = PNSRefreshTarget(tupleID: tuple.id, provider: tuple.provider,
                                        appID: tuple.appIDOther ?? tuple.appIDCalls ?? "", token: other)
        let refreshed = other != nil && schedule.before > 0 && schedule.lead(expiresAt: expiresAt, now: now) > 0
        let purr = schedule.registered(key, expiresAt: expiresAt, now: now, pushes: refreshed) {
            UUID.random().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        }
        return (purr, refreshed)
    }

    /// At start: the push-capable bindings loaded from the database get
    /// their refresh schedule back (a phone told `+sip.pnsreg` before a
    /// restart waits for its push), from their tuples, read off the loop.
    /// Their PRID-URRs are new: the phones learn them at their next REGISTER.
    func restore(bindings: [Binding]) {
        var expiries: [BindingRefreshKey: Date] = [:]
        for binding in bindings {
            guard let selector = Self.selector(of: binding) else { continue }
            expiries[BindingRefreshKey(aor: binding.aor, selector: selector)] = binding.expiresAt
        }
        guard !expiries.isEmpty else { return }
        let users = Set(expiries.keys.map(\.aor))
        let logger = self.logger
        let failed = metrics.storeFailed
        let resume = self.resume
        tuples.read { [expiries] store in
            var found: [BindingRefreshKey: DeviceTuple] = [:]
            for user in users {
                do {
                    for tuple in try store.list(username: user, limit: 10_000, offset: 0) {
                        let key = BindingRefreshKey(aor: user, selector: tuple.selector)
                        if expiries[key] != nil { found[key] = tuple }
                    }
                } catch {
                    failed.increment()
                    logger.warning("refresh schedule not restored for a user", metadata: ["sip.aor": "\(user)", "error": "\(error)"])
                }
            }
            let tuples = found
            resume { registrations in registrations.restored(tuples, expiries: expiries) }
        }
    }

    private func restored(_ tuples: [BindingRefreshKey: DeviceTuple], expiries: [BindingRefreshKey: Date]) {
        let now = clock()
        for (key, tuple) in tuples {
            guard let expiresAt = expiries[key], expiresAt > now, schedule.purr(of: key) == nil else { continue }
            _ = schedule(key, tuple: tuple, expiresAt: expiresAt, now: now)
        }
        logger.debug("refresh schedule restored", metadata: ["pns.devices": .stringConvertible(schedule.count)])
    }

    // MARK: Bindings and time

    /// The registrar expired or evicted bindings. An expired push-capable
    /// binding ends its refresh schedule, and its tuple stays a push target
    /// (a lapsed binding is what a sleeping phone looks like). An evicted
    /// one (the user's newest registrations took its place) is no push
    /// target any more.
    func bindingsChanged(_ changes: [BindingChange]) {
        for change in changes {
            guard case .removed(let binding, let reason) = change, let selector = Self.selector(of: binding) else { continue }
            let key = BindingRefreshKey(aor: binding.aor, selector: selector)
            switch reason {
            case .expired:
                if let action = schedule.lapsed(key) { perform(action) }
            case .evicted:
                schedule.removed(key)
                targets[key] = nil
                let logger = self.logger
                let failed = metrics.storeFailed
                tuples.write { store in
                    do { _ = try store.remove(username: binding.aor, selector: selector) } catch {
                        failed.increment()
                        logger.warning("push target of an evicted binding not removed",
                                       metadata: ["sip.aor": "\(binding.aor)", "error": "\(error)"])
                    }
                }
            case .unregistered, .deleted:
                // An operator's delete leaves the device's tuple: `tuples delete` removes it.
                continue
            }
        }
    }

    /// Once a second: the refresh pushes that are due.
    func tick() {
        for action in schedule.tick(now: clock()) { perform(action) }
    }

    private func perform(_ action: BindingRefreshAction) {
        switch action {
        case .expired(let key):
            targets[key] = nil
        case .unanswered(let key, let pushes):
            targets[key] = nil
            metrics.refreshUnanswered.increment()
            logger.warning("binding expired although refresh pushes were sent", metadata: [
                "sip.aor": "\(key.aor)", "pns.selector": "\(key.selector)", "pns.pushes": .stringConvertible(pushes)])
        case .push(let key, let purr, let attempt):
            push(key, purr: purr, attempt: attempt)
        }
    }

    private func push(_ key: BindingRefreshKey, purr: String, attempt: Int) {
        guard let target = targets[key], let token = target.token, let sender else { return }
        let now = clock()
        var message = PushMessage(
            provider: target.provider, event: .bindingRefresh, tupleID: target.tupleID, appID: target.appID,
            deviceToken: token, selector: key.selector, pairingID: "refresh-\(purr)", callerDisplayName: nil,
            callerUser: nil, callerDomain: nil, media: nil, badge: nil, sound: nil, sentAt: now,
            expiresAt: now.addingTimeInterval(Self.refreshPushLifetime), callee: key.aor)
        message.purr = purr
        logger.debug("binding refresh push", metadata: [
            "sip.aor": "\(key.aor)", "pns.selector": "\(key.selector)", "pns.attempt": .stringConvertible(attempt)])
        let resume = self.resume
        sender.send(message) { result in
            resume { registrations in
                registrations.pushAnswered(key, tupleID: target.tupleID, token: token, result: result, sentAt: now)
            }
        }
    }

    /// A refresh push's answer. A token gone is deleted, unless the device
    /// re-registered with another token meanwhile (its tuple keeps its id).
    private func pushAnswered(_ key: BindingRefreshKey, tupleID: Int64, token: String, result: PushResult,
                              sentAt: Date) {
        let logger = self.logger
        if result.kind == .delivered {
            metrics.refreshDelivered.increment()
        } else {
            metrics.refreshFailed.increment()
        }
        let failed = metrics.storeFailed
        if result.kind == .tokenGone {
            // The device is gone: no more refreshes, and no more call pushes.
            if targets[key]?.token == token {
                schedule.removed(key)
                targets[key] = nil
            }
            tuples.write { store in
                do {
                    guard let tuple = try store.get(id: tupleID), tuple.tokenCalls == token || tuple.tokenOther == token
                    else { return }
                    _ = try store.delete(id: tupleID)
                } catch {
                    failed.increment()
                    logger.warning("stale push target not deleted", metadata: ["push.tuple_id": .stringConvertible(tupleID), "error": "\(error)"])
                }
            }
            return
        }
        let now = clock()
        tuples.write { store in
            do {
                try store.recordPushResult(id: tupleID, sentAt: sentAt, at: now, status: result.httpStatus, result: result.name)
            } catch StorageError.tupleNotFound {
                logger.debug("refresh push result for a tuple already deleted", metadata: ["push.tuple_id": .stringConvertible(tupleID)])
            } catch {
                failed.increment()
                logger.warning("refresh push result not written on the tuple",
                               metadata: ["push.tuple_id": .stringConvertible(tupleID), "error": "\(error)"])
            }
        }
    }

    /// The selector of the push target `binding` keeps, when its Contact
    /// has RFC 8599 push parameters naming a device.
    static func selector(of binding: Binding) -> String? {
        guard binding.contact.contains("pn-"), let uri = SIPURI(parsing: binding.contact),
              let push = uri.pushParameters else { return nil }
        return push.selector(aor: binding.aor, instanceID: binding.instanceID)
    }
}
