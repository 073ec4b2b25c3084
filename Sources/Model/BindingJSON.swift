import Foundation

/// A binding as programs read it: `GET /admin/v1/registrations` and
/// `sipwake registrations list --json` print the same object, nulls explicit.
public struct BindingJSON: Encodable, Sendable {
    let aor: String
    let contact: String
    let expiresIn: Int
    let expiresAt: String
    let transport: String
    let source: String
    @ExplicitNull var instance: String?
    @ExplicitNull var regID: Int?
    @ExplicitNull var q: Double?
    let path: [String]
    @ExplicitNull var userAgent: String?
    let callID: String
    let cseq: UInt32
    let registeredAt: String
    let updatedAt: String

    public init(_ b: Binding, now: Date) {
        aor = b.aor
        contact = b.contact
        expiresIn = b.remainingSeconds(at: now)
        expiresAt = ISO8601Time.seconds(b.expiresAt)
        transport = b.source.transport.rawValue
        source = "\(b.source.host):\(b.source.port)"
        instance = b.instanceID
        regID = b.regID
        q = b.q.map { Double($0) / 1000 }
        path = b.path
        userAgent = b.userAgent
        callID = b.callID
        cseq = b.cseq
        registeredAt = ISO8601Time.seconds(b.registeredAt)
        updatedAt = ISO8601Time.seconds(b.updatedAt)
    }
}
