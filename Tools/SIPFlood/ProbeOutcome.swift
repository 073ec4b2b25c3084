/// How one REGISTER exchange of the legitimate client ended.
public enum ProbeOutcome: Sendable, Equatable {
    /// 200 OK.
    case registered
    /// Another final response (the status), or a challenge it could not answer.
    case failed(Int)
    /// No final response within the timeout, in spite of retransmissions.
    case timedOut
}
