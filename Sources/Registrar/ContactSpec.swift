import Model
/// One Contact header entry of a REGISTER, already parsed by the SIP layer.
public struct ContactSpec: Sendable, Equatable {
    /// Contact URI without header parameters.
    public var uri: String
    /// The `expires` Contact parameter (RFC 3261 §10.2.1.1), which takes
    /// precedence over the Expires header for this contact.
    public var expires: Int?
    /// q-value in thousandths (`0.5` is 500); nil when absent. The SIP layer
    /// rejects an invalid q-value with 400 before the registrar sees it.
    public var q: Int?
    /// `+sip.instance` value (RFC 5626 §4.1), e.g. `<urn:uuid:...>`, quotes removed.
    public var instanceID: String?
    /// `reg-id` (RFC 5626 §4.2).
    public var regID: Int?
    /// The RFC 8599 push parameters of the Contact URI, when it has `pn-provider`.
    public var push: SIPPushParameters?

    public init(uri: String, expires: Int? = nil, q: Int? = nil, instanceID: String? = nil, regID: Int? = nil,
                push: SIPPushParameters? = nil) {
        self.uri = uri
        self.expires = expires
        self.q = q
        self.instanceID = instanceID
        self.regID = regID
        self.push = push
    }

    /// The identity of the binding this contact refers to within its AOR.
    public var key: BindingKey { BindingKey(instanceID: instanceID, regID: regID, contact: uri) }
}
