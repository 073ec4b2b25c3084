import Forking
import Model
import SIPCore

/// Turns a copy of the caller's INVITE into the request of one branch
/// (RFC 3261 §16.6): the contact as Request-URI, one hop less, this proxy's
/// own Route entries popped, the binding's Path and flow as Route, the
/// pairing id as `X-Push-ID` when the PBX did not set one, and a
/// Record-Route entry on each side so in-dialog requests come back here.
struct BranchForwarder {
    let settings: CallProxySettings

    /// Rewrites `request` for the branch to `binding`; `callerToken` is the
    /// caller-facing Record-Route token of the call.
    func prepare(_ request: ForwardedRequest, for binding: Binding, route: BindingRoute, callID: String,
                 pairingID: String, hasPushID: Bool, callerTransport: SIPTransport, callerToken: String) {
        _ = request.setRequestURI(binding.contact)
        _ = request.decrementMaxForwards()
        removeOwnRoutes(request)
        if !hasPushID { request.addHeader("X-Push-ID", pairingID) }
        request.prependRoutes(route.routeHeaders)
        let calleeToken = RecordRouteToken(flow: binding.path.isEmpty ? binding.source : nil)
            .encoded(callID: callID, key: settings.tokenKey)
        request.prependRecordRoutes([
            settings.recordRoute(transport: binding.source.transport, token: calleeToken),
            settings.recordRoute(transport: callerTransport, token: callerToken),
        ])
    }

    /// The `Reason` header of a branch's CANCEL (RFC 3326): why the call
    /// stopped ringing that device; the caller's own Reason when the caller
    /// cancelled; none when the branch is replaced or its device unregistered.
    func cancelReason(_ reason: CancelReason, callerReason: String?) -> String? {
        switch reason {
        case .answeredElsewhere: return "SIP;cause=200;text=\"Call completed elsewhere\""
        case .callerCancelled: return callerReason
        case .declined: return "SIP;cause=603;text=\"Declined\""
        case .noAnswer: return "SIP;cause=480;text=\"No answer\""
        case .shutdown: return "SIP;cause=503;text=\"Shutting down\""
        case .replaced, .unregistered: return nil
        }
    }

    /// Pops the Route entries this proxy wrote (a PBX may preload one).
    func removeOwnRoutes(_ request: ForwardedRequest) {
        while let top = request.routes.first, top.contains(";\(RecordRouteToken.parameter)=") || isOwnRoute(top) {
            request.popRoute()
        }
    }

    /// Whether the Route entry `value` names this proxy: its Record-Route
    /// host on one of its ports, or that host with no port.
    func isOwnRoute(_ value: String) -> Bool {
        let uri = BindingRoute.uri(ofNameAddr: value).lowercased()
        let host = settings.recordRouteHost.lowercased()
        return settings.ports.values.contains { uri.hasPrefix("sip:\(host):\($0)") }
            || uri == "sip:\(host);lr" || uri.hasPrefix("sip:\(host);")
    }
}
