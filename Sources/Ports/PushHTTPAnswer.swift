import Foundation

/// What came back for one push request: the provider's HTTP answer, or the
/// reason there was none.
public enum PushHTTPAnswer: Sendable, Equatable {
    case response(status: Int, headers: [PushHTTPHeader], body: Data)
    case transportFailure(PushTransportFailure)
}
