import Foundation
import Ports
import Push
import Synchronization

/// An HTTP performer that answers every request with the same answer and
/// keeps the requests, for the credential makers' unit tests (the real
/// exchange is tested over loopback HTTP in FCMOAuthExchangeTests).
final class RecordingHTTP: PushHTTPPerformer {
    private let answer: PushHTTPAnswer
    private let recorded = Mutex<[PushHTTPRequest]>([])

    init(answer: PushHTTPAnswer) {
        self.answer = answer
    }

    var requests: [PushHTTPRequest] { recorded.withLock { $0 } }

    func perform(_ request: PushHTTPRequest) async -> PushHTTPAnswer {
        recorded.withLock { $0.append(request) }
        return answer
    }

    /// Google's answer with an access token.
    static func token(_ token: String, expiresIn: Int) -> PushHTTPAnswer {
        .response(status: 200, headers: [],
                  body: Data(#"{"access_token":"\#(token)","expires_in":\#(expiresIn),"token_type":"Bearer"}"#.utf8))
    }
}
