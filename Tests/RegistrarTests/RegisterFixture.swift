import Foundation
import Model
@testable import Registrar

/// Builders for requests and bindings, so each test states only what it is about.
enum RegisterFixture {
    static let t0 = Date(timeIntervalSince1970: 1_700_000_000)
    static let source = BindingSource(transport: .udp, host: "198.51.100.7", port: 5060)
    static let otherSource = BindingSource(transport: .tcp, host: "203.0.113.9", port: 40123, connectionID: 42)

    static func request(
        aor: String = "alice", callID: String = "call-1", cseq: UInt32 = 1, expires: Int? = nil,
        contacts: [ContactSpec], wildcard: Bool = false, path: [String] = [],
        source: BindingSource = RegisterFixture.source, userAgent: String? = "Groundwire/1.0"
    ) -> RegisterRequest {
        RegisterRequest(
            aor: aor, callID: callID, cseq: cseq, expiresHeader: expires, contacts: contacts,
            isWildcard: wildcard, path: path, source: source, userAgent: userAgent
        )
    }

    static func contact(_ user: String, expires: Int? = nil, q: Int? = nil, instance: String? = nil, regID: Int? = nil) -> ContactSpec {
        ContactSpec(uri: "sip:\(user)@198.51.100.7:5060", expires: expires, q: q, instanceID: instance, regID: regID)
    }

    static func binding(
        aor: String = "alice", contact user: String, instance: String? = nil, callID: String = "call-1",
        cseq: UInt32 = 1, q: Int? = nil, expiresAt: Date, registeredAt: Date = RegisterFixture.t0,
        updatedAt: Date = RegisterFixture.t0
    ) -> Binding {
        Binding(
            aor: aor, contact: "sip:\(user)@198.51.100.7:5060", instanceID: instance, callID: callID, cseq: cseq,
            q: q, expiresAt: expiresAt, source: source, registeredAt: registeredAt, updatedAt: updatedAt
        )
    }

    /// The accepted outcome's parts, or nil when rejected.
    static func accepted(_ outcome: RegisterOutcome) -> (changes: [BindingChange], bindings: [Binding])? {
        if case .accepted(let changes, let bindings) = outcome { return (changes, bindings) }
        return nil
    }
}
