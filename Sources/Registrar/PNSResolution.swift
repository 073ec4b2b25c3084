/// What the registrar does with a Contact's RFC 8599 parameters.
public enum PNSResolution: Sendable, Equatable {
    /// The device is a push target of its user.
    case device(PNSDevice)
    /// The service is supported but the Contact names no device to push
    /// (`pn-provider` alone asks whether the service is supported, §4.1; or
    /// an APNs `pn-prid` without a VoIP token): the binding is an ordinary one.
    case noDevice(reason: String)
    /// No app of `[apps.*]` uses this known service: its devices are pushed
    /// through the tuples their apps report (the Acrobits gateway, the
    /// customer's backend). The binding is an ordinary one, its `pn-prid`
    /// only tells which reported device it is (nothing is stored, nothing
    /// is advertised).
    case reported
    /// A parameter is not what RFC 8599 allows (control characters or
    /// spaces once unescaped, a value longer than any push service uses):
    /// `400` with `reason` (e.g. `Bad pn-prid`) as its phrase, nothing stored.
    case invalid(reason: String)
    /// No configured app is reached by this `pn-provider` and `pn-param`:
    /// `555 Push Notification Service Not Supported` (§5).
    case unsupported(reason: String)
}
