import SIPAttackSupport

/// Why a fuzzing run or a replay could not start.
public enum FuzzError: Error, CustomStringConvertible {
    case tlsPortMissing
    case badSetting(String)
    case targetSilent(LoopbackEndpoint)
    case badReplayFile(String)

    public var description: String {
        switch self {
        case .tlsPortMissing:
            return "the tls transport needs --tls-port (the target's TLS listener)"
        case .badSetting(let text):
            return text
        case .targetSilent(let target):
            return "\(target) does not answer OPTIONS over UDP: start the server first"
        case .badReplayFile(let name):
            return "\(name): a replay file is named NAME[.cN].udp|tcp|tls.sip"
        }
    }
}
