/// Why a push request got no HTTP answer.
public struct PushTransportFailure: Sendable, Equatable {
    public enum Reason: Sendable, Equatable {
        /// The request took longer than the push timeout.
        case timeout
        /// The connection failed or broke: trying again may work.
        case network
        /// A bad URL, protocol or certificate, or the HTTP library itself:
        /// trying again will not help.
        case setup
    }

    public var reason: Reason
    /// The transport's own message.
    public var message: String

    public init(reason: Reason, message: String) {
        self.reason = reason
        self.message = message
    }
}
