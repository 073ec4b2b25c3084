import Glibc

/// Why an attack tool refused to start or could not reach its target.
public enum AttackToolError: Error, Equatable, CustomStringConvertible {
    /// The tools send only to, and only from, 127.0.0.0/8.
    case notLoopback(String)
    /// Not `HOST:PORT` with a port from 1 to 65535.
    case badEndpoint(String)
    /// A socket call failed; `errno` as the system set it.
    case socket(call: String, errno: Int32)
    /// OpenSSL refused to make a context or finish a handshake.
    case tls(String)
    /// A setting out of its range.
    case badSetting(String)
    /// A file to replay, or the output directory, could not be used.
    case file(path: String, reason: String)

    public var description: String {
        switch self {
        case .notLoopback(let text):
            return "'\(text)' is not a loopback address: these tools only talk to 127.0.0.0/8"
        case .badEndpoint(let text):
            return "'\(text)' is not HOST:PORT (an IPv4 loopback address or localhost, and a port from 1 to 65535)"
        case .socket(let call, let code):
            return "\(call) failed: \(String(cString: strerror(code)))"
        case .tls(let reason):
            return "TLS: \(reason)"
        case .badSetting(let text):
            return text
        case .file(let path, let reason):
            return "\(path): \(reason)"
        }
    }
}
