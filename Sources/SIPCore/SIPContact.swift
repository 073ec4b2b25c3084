/// One entry of a Contact header, read from Sofia's parsed `sip_contact_t`.
public struct SIPContact: Sendable, Equatable {
    /// Nil for `Contact: *`.
    public var uri: SIPURI?
    public var isWildcard: Bool { uri == nil }
    /// The `expires` parameter exactly as sent.
    public var expires: String?
    /// The `q` parameter exactly as sent.
    public var q: String?
    /// Every contact parameter, names lower-cased, values unquoted.
    public var parameters: [String: String]

    public init(uri: SIPURI?, expires: String?, q: String?, parameters: [String: String]) {
        self.uri = uri
        self.expires = expires
        self.q = q
        self.parameters = parameters
    }

    /// `+sip.instance` (RFC 5626), unquoted, e.g. `<urn:uuid:...>`.
    public var instanceID: String? { parameters["+sip.instance"] }
    /// `reg-id` (RFC 5626) as sent.
    public var regID: String? { parameters["reg-id"] }
}
