/// Failures of the SIP core that the operator must hear about.
public enum SIPCoreError: Error, CustomStringConvertible, Equatable {
    case loopStartFailed(String)
    case listenFailed(url: String, reason: String)
    case agentCreateFailed(String)

    public var description: String {
        switch self {
        case .loopStartFailed(let reason):
            return "cannot start the SIP loop: \(reason)"
        case .listenFailed(let url, let reason):
            return "cannot listen on \(url): \(reason)"
        case .agentCreateFailed(let reason):
            return "cannot create the SIP agent: \(reason)"
        }
    }
}
