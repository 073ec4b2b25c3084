import Foundation
import Logging
import Metrics
import Model
import Registrar
import SIPCore

/// OPTIONS keep-alives to every binding, `interval` seconds apart, each sent
/// the way any request to that binding goes (`BindingRoute`): to the NAT
/// address over the phone's own connection. This keeps NAT mappings and
/// stream connections open. The bindings are spread over the interval so a
/// large table sends a steady trickle rather than a burst. Loop thread only.
final class BindingKeepalive {
    private let interval: UInt64
    private let fromURI: String
    private let logger: Logger
    private var ticks: UInt64 = 0
    private let sent: Counter
    private let failed: Counter

    init(intervalSeconds: Int, domain: String, logger: Logger, metrics: any MetricsFactory) {
        sent = Counter(label: "sipwake_keepalive_sent_total", factory: metrics)
        failed = Counter(label: "sipwake_keepalive_failures_total", factory: metrics)
        interval = UInt64(max(1, intervalSeconds))
        fromURI = "<sip:sipwake@\(domain)>"
        self.logger = logger
    }

    /// Call once a second with the current bindings.
    func tick(bindings: [Binding], agent: SIPAgent) {
        ticks += 1
        let slot = ticks % interval
        for binding in bindings where UInt64(truncatingIfNeeded: binding.key.hashValue) % interval == slot {
            send(to: binding, agent: agent)
        }
    }

    private func send(to binding: Binding, agent: SIPAgent) {
        let route = BindingRoute(binding)
        let tags = SofiaTagList()
            .requestLine("OPTIONS", binding.contact)
            .from("\(fromURI);tag=\(UUID.random().uuidString.prefix(8))")
            .to("<\(binding.contact)>")
            .callID(UUID.random().uuidString)
            .cseq(1, "OPTIONS")
            .maxForwards(70)
        for value in route.routeHeaders { tags.header("Route", value) }
        let connection = route.connectionID.flatMap { agent.connections.connection(for: $0) }
        let aor = binding.aor
        let contact = binding.contact
        let logger = self.logger
        let failed = self.failed
        let accepted = agent.sendRequest(tags: tags, route: route.nextHop, connection: connection) { status in
            // Any answer, even 4xx, proves the device and its NAT mapping are there.
            if status == 408 || status == 503 {
                failed.increment()
                logger.debug("keepalive unanswered", metadata: ["sip.aor": "\(aor)", "sip.contact": "\(contact)", "sip.status": .stringConvertible(status)])
            }
        }
        if accepted { sent.increment() } else { failed.increment() }
    }
}

