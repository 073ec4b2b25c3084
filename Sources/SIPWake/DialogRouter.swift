import Foundation
import Logging
import Metrics
import Model
import Registrar
import SIPCore

/// Requests that follow a route set this proxy is on (RFC 3261 §16.4, §16.12):
/// ACK of a 2xx, BYE, re-INVITE, UPDATE, INFO... in either direction, and new
/// calls from phones to the outbound proxy. The Route entries this proxy wrote
/// carry a signed token (`RecordRouteToken`); a request whose own Route does
/// not verify is refused, so a forged Route cannot make sipwake relay.
/// Owned by `SIPServer`, loop thread only.
final class DialogRouter {
    private let settings: CallProxySettings
    private let logger: Logger
    private let metrics: CallMetrics
    var agent: SIPAgent?
    /// Told of every BYE relayed (its Call-ID, From tag and To tag): it may
    /// end an answered call.
    var onHangUp: ((String, String?, String?) -> Void)?
    /// Requests forwarded statefully, until their final response is relayed.
    private var inFlight: [ObjectIdentifier: (request: IncomingRequest, branch: ProxyBranch)] = [:]

    init(settings: CallProxySettings, logger: Logger, metrics: any MetricsFactory) {
        self.settings = settings
        self.logger = logger
        self.metrics = CallMetrics(factory: metrics)
    }

    /// True when the request's topmost Route names this proxy.
    func isRoutedHere(_ message: SIPMessage) -> Bool {
        guard let top = message.routes.first else { return false }
        return top.contains(";\(RecordRouteToken.parameter)=")
    }

    /// Forwards a request that carries this proxy's Route entries.
    func forwardInDialog(_ request: IncomingRequest) {
        let message = request.message
        let isACK = message.methodKind == .ack
        guard let copy = request.forwardCopy() else { return fail(request, 500, "Server Internal Error") }
        let callID = message.callID ?? ""
        var tokens: [RecordRouteToken] = []
        while let top = copy.routes.first, let value = Self.tokenValue(top) {
            guard let token = RecordRouteToken(encoded: value, callID: callID, key: settings.tokenKey) else {
                logger.notice("forged route refused", metadata: ["client.address": "\(request.source.host)", "sip.call_id": "\(callID)"])
                return fail(request, 403, "Forbidden")
            }
            tokens.append(token)
            copy.popRoute()
        }
        guard !tokens.isEmpty else { return fail(request, 403, "Forbidden") }
        guard copy.decrementMaxForwards() else { return fail(request, 483, "Too Many Hops") }

        // Toward the side the request did not come from.
        let flow = tokens.compactMap(\.flow).first { !Self.matches($0, request.source) }
        let nextHop: String
        var connection: SIPConnection?
        var namedByRequest = true
        if let route = copy.routes.first {
            nextHop = BindingRoute.uri(ofNameAddr: route)
        } else if let flow {
            namedByRequest = false
            let host = flow.host.contains(":") ? "[\(flow.host)]" : flow.host
            nextHop = "sip:\(host):\(flow.port);transport=\(flow.transport.rawValue)"
            connection = flow.connectionID.flatMap { agent?.connections.connection(for: $0) }
        } else if let uri = message.requestURI {
            nextHop = uri.description
        } else {
            return fail(request, 400, "No Request-URI")
        }
        // A next hop the request names itself is only for trusted sources,
        // or toward the PBX side: a phone holding a valid route set must not
        // use it to reach anyone else (never an open relay).
        if namedByRequest, !settings.trustsSource(request.source.host), !settings.mayRelayInDialog(to: nextHop) {
            logger.notice("in-dialog relay refused", metadata: [
                "client.address": "\(request.source.host)", "sip.next_hop": "\(nextHop)", "sip.call_id": "\(callID)"])
            return fail(request, 403, "Relaying Forbidden")
        }
        if message.methodKind == .bye { onHangUp?(callID, message.fromTag, message.toTag) }
        forward(request, copy, nextHop: nextHop, connection: connection, stateless: isACK)
    }

    /// A new call from an authenticated phone to a destination that is not a
    /// local user: to the outbound proxy, record-routed so the rest of the
    /// dialog comes back through here and reaches the phone behind its NAT.
    func forwardToOutboundProxy(_ request: IncomingRequest, outboundProxy: String) {
        guard let copy = request.forwardCopy() else { return fail(request, 500, "Server Internal Error") }
        guard copy.decrementMaxForwards() else { return fail(request, 483, "Too Many Hops") }
        while let top = copy.routes.first, Self.tokenValue(top) != nil { copy.popRoute() }
        let callID = request.message.callID ?? ""
        let phoneSide = RecordRouteToken(flow: CallProxy.flow(of: request.source, trusted: false))
            .encoded(callID: callID, key: settings.tokenKey)
        let pbxSide = RecordRouteToken(flow: nil).encoded(callID: callID, key: settings.tokenKey)
        let outboundTransport = Self.transport(of: outboundProxy)
        copy.prependRecordRoutes([
            settings.recordRoute(transport: outboundTransport, token: pbxSide),
            settings.recordRoute(transport: request.source.transport, token: phoneSide),
        ])
        request.reply(100, "Trying")
        forward(request, copy, nextHop: outboundProxy, connection: nil, stateless: false)
    }

    private func forward(_ request: IncomingRequest, _ copy: ForwardedRequest, nextHop: String,
                         connection: SIPConnection?, stateless: Bool) {
        guard let agent else { return fail(request, 503, "Service Unavailable") }
        metrics.forwarded.increment()
        if stateless {
            if !agent.forwardStateless(copy, route: nextHop, connection: connection) {
                logger.debug("ack not forwarded", metadata: ["sip.next_hop": "\(nextHop)"])
            }
            return
        }
        let key = ObjectIdentifier(request)
        let branch = agent.fork(copy, route: nextHop, connection: connection) { [weak self] status, response in
            guard let self, let entry = self.inFlight[key] else { return }
            if let response { entry.request.relay(response) } else if status >= 200 { entry.request.reply(status) }
            if status >= 200 {
                // Later 2xx retransmissions find no transaction and are
                // forwarded statelessly by their Via (SIPAgent).
                self.inFlight[key] = nil
                entry.branch.release()
            }
        }
        guard let branch else { return fail(request, 503, "Service Unavailable") }
        inFlight[key] = (request, branch)
        request.onCancel { [weak self] reason in
            self?.inFlight[key]?.branch.cancel(reason: reason)
        }
    }

    /// Refusals go out once, statelessly (never to an ACK): anyone can send
    /// a request with a To tag and a Route, and a transaction would
    /// retransmit the answer to a spoofed source for 32 s.
    private func fail(_ request: IncomingRequest, _ status: Int, _ phrase: String) {
        metrics.dialogRefused.increment()
        request.replyStateless(status, phrase)
    }

    static func tokenValue(_ route: String) -> String? {
        let marker = ";\(RecordRouteToken.parameter)="
        guard let range = route.firstRange(of: marker) else { return nil }
        let rest = route[range.upperBound...]
        let end = rest.firstIndex { $0 == ";" || $0 == ">" || $0 == "," } ?? rest.endIndex
        return String(rest[..<end])
    }

    static func matches(_ flow: BindingSource, _ source: BindingSource) -> Bool {
        if let connection = flow.connectionID, let other = source.connectionID { return connection == other }
        return flow.transport == source.transport && flow.host == source.host && flow.port == source.port
    }

    static func transport(of uri: String) -> SIPTransport {
        let lower = uri.lowercased()
        if lower.contains("transport=tcp") { return .tcp }
        if lower.contains("transport=tls") || lower.hasPrefix("sips:") { return .tls }
        return .udp
    }
}
