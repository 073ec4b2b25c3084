import Model
import Registrar

/// Where a request to a binding goes: back to the address and port its
/// REGISTER really came from (the NAT mapping), over the same TCP/TLS
/// connection while it is open, or through the proxies of its Path
/// (RFC 3327 §5.3), which then carry it to the phone.
struct BindingRoute: Equatable {
    /// Next hop for Sofia, e.g. `sip:203.0.113.7:40123;transport=tcp`.
    var nextHop: String
    /// Route header values to put on the request (the binding's Path).
    var routeHeaders: [String]
    /// The connection to send over, when the next hop is the device itself.
    var connectionID: UInt64?

    init(_ binding: Binding) {
        if let firstPath = binding.path.first {
            routeHeaders = binding.path
            nextHop = Self.uri(ofNameAddr: firstPath)
            connectionID = nil
        } else {
            let source = binding.source
            let host = source.host.contains(":") ? "[\(source.host)]" : source.host
            nextHop = "sip:\(host):\(source.port);transport=\(source.transport.rawValue)"
            routeHeaders = []
            connectionID = source.transport.isStream ? source.connectionID : nil
        }
    }

    /// The URI of a name-addr as Sofia encoded it (`<sip:edge;lr>` or a bare URI).
    static func uri(ofNameAddr value: String) -> String {
        guard let open = value.firstIndex(of: "<"),
              let close = value[open...].firstIndex(of: ">") else { return value }
        return String(value[value.index(after: open)..<close])
    }
}
