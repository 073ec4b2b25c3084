import Model
/// A REGISTER as the registrar rules see it.
public struct RegisterRequest: Sendable, Equatable {
    /// Canonical AOR: the To user part, lower-cased (RFC 3261 §10.3 step 5).
    public var aor: String
    public var callID: String
    /// The CSeq sequence number; bindings remember it to order the requests
    /// of one Call-ID (RFC 3261 §10.3 step 7).
    public var cseq: UInt32
    /// The Expires header, the default interval for contacts without an
    /// `expires` parameter.
    public var expiresHeader: Int?
    public var contacts: [ContactSpec]
    /// `Contact: *` (RFC 3261 §10.2.2).
    public var isWildcard: Bool
    /// Path header values (RFC 3327), in order.
    public var path: [String]
    public var source: BindingSource
    public var userAgent: String?

    public init(
        aor: String, callID: String, cseq: UInt32, expiresHeader: Int? = nil,
        contacts: [ContactSpec] = [], isWildcard: Bool = false, path: [String] = [],
        source: BindingSource, userAgent: String? = nil
    ) {
        self.aor = aor
        self.callID = callID
        self.cseq = cseq
        self.expiresHeader = expiresHeader
        self.contacts = contacts
        self.isWildcard = isWildcard
        self.path = path
        self.source = source
        self.userAgent = userAgent
    }
}
