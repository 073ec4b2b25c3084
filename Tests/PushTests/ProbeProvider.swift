import Foundation
import Model
import Ports

/// A provider that lets a test see what the transport did with it: it sends
/// the method and headers it was given, notes the thread that built each
/// request and the headers of each answer, and takes any 2xx as delivered.
struct ProbeProvider: PushProvider {
    let name = "probe"
    let url: String
    var method = "POST"
    var headers: [PushHTTPHeader] = []
    let log = ProbeLog()

    func request(for message: PushMessage, at now: Date) -> PushRequestPlan {
        log.requestBuilt(onThread: ThreadName.current)
        let body = try? JSONSerialization.data(withJSONObject: ["DeviceToken": message.deviceToken])
        return .send(PushHTTPRequest(url: url, method: method, headers: headers, body: body ?? Data()))
    }

    func classify(_ answer: PushHTTPAnswer, to request: PushHTTPRequest) -> PushResult {
        switch answer {
        case .response(let status, let headers, _):
            log.answerRead(headers: headers)
            return (200..<300).contains(status) ? .delivered(status: status) : .failed(status: status, detail: "probe")
        case .transportFailure(let failure):
            return .retryable(status: nil, detail: failure.message)
        }
    }
}
