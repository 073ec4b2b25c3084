import Foundation
import Model

/// A binding as `sipwake registrations list --json` prints it; a field with
/// no value is left out.
struct RegistrationOutputJSON: Encodable {
    let aor: String
    let contact: String
    let expiresIn: Int
    let expiresAt: String
    let transport: String
    let source: String
    let callID: String
    let cseq: UInt32
    let path: [String]
    let registeredAt: String
    let updatedAt: String
    let instance: String?
    let regID: Int?
    let q: Double?
    let userAgent: String?

    enum CodingKeys: String, CodingKey {
        case aor, contact, transport, source, cseq, path, instance, q
        case expiresIn = "expires_in"
        case expiresAt = "expires_at"
        case callID = "call_id"
        case registeredAt = "registered_at"
        case updatedAt = "updated_at"
        case regID = "reg_id"
        case userAgent = "user_agent"
    }

    init(_ b: Binding, now: Date) {
        aor = b.aor
        contact = b.contact
        expiresIn = b.remainingSeconds(at: now)
        expiresAt = JSONOutput.timestamp(b.expiresAt)
        transport = b.source.transport.rawValue
        source = "\(b.source.host):\(b.source.port)"
        callID = b.callID
        cseq = b.cseq
        path = b.path
        registeredAt = JSONOutput.timestamp(b.registeredAt)
        updatedAt = JSONOutput.timestamp(b.updatedAt)
        instance = b.instanceID
        regID = b.regID
        q = b.q.map { Double($0) / 1000 }
        userAgent = b.userAgent
    }
}
