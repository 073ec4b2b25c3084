import CSofiaSIP

/// The method of a SIP request (RFC 3261 §7.1), as the registrar and proxy
/// tell requests apart. Methods sipwake has no use for by name (UPDATE,
/// INFO, PRACK, extension methods) are `other`, with the name as sent.
public enum SIPMethod: Sendable, Hashable {
    case register
    case invite
    case ack
    case cancel
    case bye
    case options
    case message
    case other(String)

    /// The method named by `name`, matched case-sensitively as RFC 3261 §7.1 requires.
    public init(name: String) {
        switch name {
        case "REGISTER": self = .register
        case "INVITE": self = .invite
        case "ACK": self = .ack
        case "CANCEL": self = .cancel
        case "BYE": self = .bye
        case "OPTIONS": self = .options
        case "MESSAGE": self = .message
        default: self = .other(name)
        }
    }

    /// The method as Sofia parsed it: its code, and the name for methods Sofia does not know.
    init(sofia code: sip_method_t, name: String?) {
        switch code {
        case sip_method_register: self = .register
        case sip_method_invite: self = .invite
        case sip_method_ack: self = .ack
        case sip_method_cancel: self = .cancel
        case sip_method_bye: self = .bye
        case sip_method_options: self = .options
        case sip_method_message: self = .message
        default: self = .other(name ?? "")
        }
    }

    /// The method's name on the wire.
    public var name: String {
        switch self {
        case .register: "REGISTER"
        case .invite: "INVITE"
        case .ack: "ACK"
        case .cancel: "CANCEL"
        case .bye: "BYE"
        case .options: "OPTIONS"
        case .message: "MESSAGE"
        case .other(let name): name
        }
    }
}
