import Foundation
import Model
import Registrar

/// Bindings for tests, with times that are exact in unix seconds.
enum BindingFixture {
    static let t0 = Date(timeIntervalSince1970: 1_900_000_000.25)

    static func instance(
        aor: String = "alice", uuid: String = "00000000-0000-0000-0000-000000000001", regID: Int? = 1,
        contact: String = "sip:alice@198.51.100.7:5060;transport=tcp", q: Int? = nil,
        expiresIn: TimeInterval = 3600, path: [String] = [], cseq: UInt32 = 1, callID: String = "call-1"
    ) -> Binding {
        Binding(
            aor: aor, contact: contact, instanceID: "<urn:uuid:\(uuid)>", regID: regID,
            callID: callID, cseq: cseq, q: q, expiresAt: t0.addingTimeInterval(expiresIn), path: path,
            source: BindingSource(transport: .tcp, host: "198.51.100.7", port: 50_123, connectionID: 42),
            userAgent: "Acrobits Softphone", registeredAt: t0, updatedAt: t0)
    }

    static func contact(
        aor: String = "bob", contact: String = "sip:bob@203.0.113.5:5062", q: Int? = 500,
        expiresIn: TimeInterval = 600, cseq: UInt32 = 7, callID: String = "call-b"
    ) -> Binding {
        Binding(
            aor: aor, contact: contact, callID: callID, cseq: cseq, q: q,
            expiresAt: t0.addingTimeInterval(expiresIn),
            source: BindingSource(transport: .udp, host: "203.0.113.5", port: 5062),
            registeredAt: t0, updatedAt: t0)
    }

    /// The same binding as read back from the store: no live connection.
    static func stored(_ binding: Binding) -> Binding {
        var binding = binding
        binding.source.connectionID = nil
        return binding
    }
}
