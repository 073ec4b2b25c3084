import Foundation
import Model
import Registrar

/// The `swk` parameter of the Record-Route entries this proxy writes. It says
/// where requests of the dialog go on that side (the phone's NAT address and
/// connection, `-` for "follow the Request-URI"), and carries an HMAC over
/// that flow and the Call-ID, so a Route that this proxy never wrote cannot
/// make it relay anything (never an open relay).
struct RecordRouteToken: Equatable {
    /// Where requests toward this side of the dialog go; nil: by the Request-URI.
    var flow: BindingSource?

    static let parameter = "swk"

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// `udp~203.0.113.7~40123~0.MAC`, or `-.MAC`.
    func encoded(callID: String, key: RecordRouteKey) -> String {
        let body = flow.map { "\($0.transport.rawValue)~\($0.host)~\($0.port)~\($0.connectionID ?? 0)" } ?? "-"
        return "\(body).\(Self.mac(body, callID: callID, key: key))"
    }

    /// Reads and checks a token; nil when it is malformed or was not signed here.
    init?(encoded: String, callID: String, key: RecordRouteKey) {
        guard let dot = encoded.lastIndex(of: ".") else { return nil }
        let body = String(encoded[..<dot])
        let mac = String(encoded[encoded.index(after: dot)...])
        guard ConstantTimeComparison.equals(mac, Self.mac(body, callID: callID, key: key)) else { return nil }
        if body == "-" {
            flow = nil
            return
        }
        let parts = body.split(separator: "~", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 4, let transport = SIPTransport(rawValue: parts[0]), let port = Int(parts[2]),
              let connection = UInt64(parts[3]) else { return nil }
        flow = BindingSource(transport: transport, host: parts[1], port: port,
                             connectionID: connection == 0 ? nil : connection)
    }

    init(flow: BindingSource?) {
        self.flow = flow
    }

    private static func mac(_ body: String, callID: String, key: RecordRouteKey) -> String {
        var hex = [UInt8]()
        hex.reserveCapacity(16)
        for byte in key.code(body, callID) {
            hex.append(Self.hexDigits[Int(byte >> 4)])
            hex.append(Self.hexDigits[Int(byte & 0x0f)])
        }
        return String(decoding: hex, as: UTF8.self)
    }
}
