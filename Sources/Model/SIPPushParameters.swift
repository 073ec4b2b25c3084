/// The RFC 8599 push parameters of a Contact URI: which push notification
/// service (PNS) reaches the device (`pn-provider`), the device's address at
/// that service (`pn-prid`, its push token), what else the service needs
/// (`pn-param`: the APNs team and topic, the Firebase project) and the
/// registration's PRID-URR when a push triggered this REGISTER (`pn-purr`).
public struct SIPPushParameters: Sendable, Hashable {
    /// `pn-provider`, lower-cased: `apns`, `fcm`, or one sipwake does not know.
    public var provider: String
    public var prid: String?
    public var param: String?
    public var purr: String?

    public init(provider: String, prid: String? = nil, param: String? = nil, purr: String? = nil) {
        self.provider = provider.lowercased()
        self.prid = prid.flatMap { $0.isEmpty ? nil : $0 }
        self.param = param.flatMap { $0.isEmpty ? nil : $0 }
        self.purr = purr.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The longest selector a device tuple takes.
    static let selectorLimit = 256
    /// What every selector of an RFC 8599 push target starts with.
    public static let selectorPrefix = "rfc8599:"

    /// The selector of the device tuple this registration of `aor` keeps:
    /// ``deviceSelector(aor:instanceID:prid:)`` with this `pn-prid`.
    public func selector(aor: String, instanceID: String?) -> String? {
        Self.deviceSelector(aor: aor, instanceID: instanceID, prid: prid)
    }

    /// `rfc8599:USER:` and the device's `+sip.instance` when it sent one
    /// (RFC 5626: one device whatever its address), else its push token,
    /// which is just as unique to one app on one device; nil without
    /// either. The user is part of it: one phone with two accounts (one
    /// instance, one token) keeps a push target for each, and no account's
    /// REGISTER can replace another's. Cut to 256 characters.
    public static func deviceSelector(aor: String, instanceID: String?, prid: String?) -> String? {
        let device: String
        if let instanceID, !instanceID.isEmpty {
            device = instanceID
        } else if let prid {
            device = "pn-prid:" + prid
        } else {
            return nil
        }
        return String((selectorPrefix + aor + ":" + device).prefix(selectorLimit))
    }
}
