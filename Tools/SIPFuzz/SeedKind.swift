/// The valid messages mutations start from: the requests a phone or a PBX
/// sends sipwake, and the responses its branches get back.
public enum SeedKind: String, CaseIterable, Sendable {
    case register
    case registerWithCredentials
    case invite
    case cancel
    case ack
    case bye
    case message
    case options
    case subscribe
    case trying100
    case ringing180
    case ok200
    case unauthorized401
    case proxyAuthentication407
    case terminated487
    case unavailable503

    public var isResponse: Bool {
        switch self {
        case .trying100, .ringing180, .ok200, .unauthorized401, .proxyAuthentication407, .terminated487, .unavailable503:
            return true
        default:
            return false
        }
    }
}
