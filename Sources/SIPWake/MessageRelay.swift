import Forking
import Foundation
import Logging
import Metrics
import Model
import Registrar
import SIPCore

/// Relays MESSAGE requests (RFC 3428, SIP SIMPLE) to a local user's
/// registered contacts, as a forking proxy (RFC 3261 §16): a branch to
/// every binding, routed like a call's branches (the binding's NAT address
/// and connection, or its Path). The first 2xx goes upstream; when every
/// branch failed, the best of their answers does (`BestResponse`). A MESSAGE
/// creates no dialog, so nothing is record-routed. Who may send one is
/// decided before (`SIPServer`), by the same rules as for an INVITE.
///
/// Owned by `SIPServer`, loop thread only.
final class MessageRelay {
    private final class Relay {
        let request: IncomingRequest
        var branches: [BranchID: ProxyBranch] = [:]
        var finals: [BranchID: (status: Int, response: SIPResponse?)] = [:]
        var answered = false

        init(request: IncomingRequest) { self.request = request }
    }

    private let logger: Logger
    private let metrics: CallMetrics
    var agent: SIPAgent?
    private var relays: [ObjectIdentifier: Relay] = [:]

    init(logger: Logger, metrics: any MetricsFactory) {
        self.logger = logger
        self.metrics = CallMetrics(factory: metrics)
    }

    var pendingCount: Int { relays.count }

    /// Sends `request` to every binding; 480 at once when there is none.
    func relay(_ request: IncomingRequest, to bindings: [Binding]) {
        guard !bindings.isEmpty else {
            request.reply(480, "Temporarily Unavailable")
            return
        }
        guard let agent else { return request.reply(503, "Service Unavailable") }
        let relay = Relay(request: request)
        let key = ObjectIdentifier(relay)
        for (index, binding) in bindings.enumerated() {
            let id = BranchID(index + 1)
            guard let copy = request.forwardCopy(), copy.setRequestURI(binding.contact) else {
                relay.finals[id] = (503, nil)
                continue
            }
            guard copy.decrementMaxForwards() else {
                return request.reply(483, "Too Many Hops")
            }
            let route = BindingRoute(binding)
            copy.prependRoutes(route.routeHeaders)
            let connection = route.connectionID.flatMap { agent.connections.connection(for: $0) }
            let branch = agent.fork(copy, route: route.nextHop, connection: connection) { [weak self] status, response in
                self?.response(key, id, status: status, response: response)
            }
            if let branch {
                relay.branches[id] = branch
            } else {
                relay.finals[id] = (503, nil)
            }
        }
        metrics.forwarded.increment()
        relays[key] = relay
        logger.debug("message relayed", metadata: [
            "sip.call_id": "\(request.message.callID ?? "")", "message.branches": .stringConvertible(relay.branches.count)])
        finishIfDone(key)
    }

    /// Answers every MESSAGE still waiting (shutdown) with 503.
    func closeAll() {
        for relay in relays.values {
            relay.request.reply(503, "Shutting Down", tags: SofiaTagList().header("Retry-After", "5"))
            for branch in relay.branches.values { branch.release() }
        }
        relays.removeAll()
    }

    private func response(_ key: ObjectIdentifier, _ id: BranchID, status: Int, response: SIPResponse?) {
        guard let relay = relays[key], status >= 200, relay.finals[id] == nil else { return }
        relay.finals[id] = (status, response)
        if (200..<300).contains(status), !relay.answered {
            relay.answered = true
            if let response { relay.request.relay(response) } else { relay.request.reply(status) }
        }
        finishIfDone(key)
    }

    /// Once every branch has its final answer: the best one upstream (when
    /// no 2xx went already), and the branches released.
    private func finishIfDone(_ key: ObjectIdentifier) {
        guard let relay = relays[key], relay.branches.keys.allSatisfy({ relay.finals[$0] != nil }) else { return }
        if !relay.answered {
            relay.answered = true
            let finals = relay.finals.map { (id: $0.key, status: $0.value.status) }
            if let best = BestResponse.pick(finals) {
                let status = BestResponse.upstreamStatus(best.status)
                if status == best.status, let response = relay.finals[best.id]?.response {
                    relay.request.relay(response)
                } else {
                    relay.request.reply(status)
                }
            } else {
                relay.request.reply(480, "Temporarily Unavailable")
            }
        }
        for branch in relay.branches.values { branch.release() }
        relays[key] = nil
    }
}
