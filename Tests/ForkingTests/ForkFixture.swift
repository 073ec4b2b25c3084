import Forking
import Foundation
import Model

/// Builders for the state machine tests: contacts, tuples and a fork started at t0.
enum ForkFixture {
    static let t0 = Date(timeIntervalSince1970: 1_700_000_000)

    static func at(_ seconds: TimeInterval) -> Date { t0.addingTimeInterval(seconds) }

    static func binding(_ name: String, instance: String? = nil, cseq: UInt32 = 1, token: String? = nil) -> Binding {
        let contact = "sip:\(name)@192.0.2.10:5060" + (token.map { ";pn-prid=\($0)" } ?? "")
        return Binding(aor: "alice", contact: contact, instanceID: instance, callID: "reg-\(name)", cseq: cseq,
                       expiresAt: at(3600), source: BindingSource(transport: .udp, host: "192.0.2.10", port: 5060),
                       registeredAt: t0, updatedAt: t0)
    }

    static func target(_ id: Int64, token: String? = nil) -> PushTarget {
        let token = token ?? "tok-\(id)"
        return PushTarget(tupleID: id, selector: "sel\(id)", callsAppID: "app.calls", callsToken: token,
                          otherAppID: "app.other", otherToken: token)
    }

    /// Stands in for the SIP layer's Contact reader on the contacts
    /// `binding` makes: the `pn-prid` it appended, %-escapes undone.
    static let contactPushToken: @Sendable (String) -> String? = { contact in
        contact.components(separatedBy: ";pn-prid=").dropFirst().first?.removingPercentEncoding
    }

    /// A fork at t0 with `settings`, reading contacts with `contactPushToken`.
    static func fork(_ settings: ForkSettings = ForkSettings()) -> CallFork {
        var settings = settings
        settings.contactPushToken = contactPushToken
        return CallFork(recordID: "rec-1", pairingID: "pair-1", callID: "call-1", callee: "alice",
                        caller: CallerInfo(uri: "sip:bob@pbx.example", displayName: "Bob", user: "bob", domain: "pbx.example"),
                        settings: settings, now: t0)
    }

    /// A fork that has handled `.start` at t0.
    static func started(bindings: [Binding], targets: [PushTarget]?, wakeupHold: Bool = true,
                        settings: ForkSettings = ForkSettings()) -> (CallFork, [ForkAction]) {
        var fork = fork(settings)
        let actions = fork.handle(.start(bindings: bindings, targets: targets, wakeupHold: wakeupHold), now: t0)
        return (fork, actions)
    }
}

extension Array where Element == ForkAction {
    var forks: [(BranchID, Binding)] {
        compactMap { if case .fork(let id, let b) = $0 { return (id, b) } else { return nil } }
    }
    var pushes: [(PushID, PushTarget, PushEvent)] {
        compactMap { if case .push(let id, let t, let k) = $0 { return (id, t, k) } else { return nil } }
    }
    var cancels: [(BranchID, CancelReason)] {
        compactMap { if case .cancel(let id, let r) = $0 { return (id, r) } else { return nil } }
    }
    /// Silent branches stopped without a CANCEL.
    var retires: [(BranchID, CancelReason)] {
        compactMap { if case .retire(let id, let r) = $0 { return (id, r) } else { return nil } }
    }
    /// Branches ended either way (CANCEL or stopped), in order.
    var stops: [(BranchID, CancelReason)] {
        compactMap {
            switch $0 {
            case .cancel(let id, let r), .retire(let id, let r): return (id, r)
            default: return nil
            }
        }
    }
    var messages: [Binding] {
        compactMap { if case .missedCallMessage(let b) = $0 { return b } else { return nil } }
    }
    var responses: [Int] {
        compactMap { if case .respond(let s) = $0 { return s } else { return nil } }
    }
    var relayedFinals: [(BranchID, Int)] {
        compactMap { if case .relayFinal(let id, let s) = $0 { return (id, s) } else { return nil } }
    }
}
