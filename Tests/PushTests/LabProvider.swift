import Foundation
import Model
import Ports

/// A second provider for the transport tests: it posts its own body to its
/// own path and reads every answer its own way, so a test can tell that the
/// client used the provider the message names.
struct LabProvider: PushProvider {
    let name = "lab"
    let url: String

    func request(for message: PushMessage, at now: Date) -> PushRequestPlan {
        let body = try? JSONSerialization.data(withJSONObject: ["DeviceToken": message.deviceToken, "event": message.event.rawValue])
        return .send(PushHTTPRequest(url: url, headers: [PushHTTPHeader("Content-Type", "application/json")], body: body ?? Data()))
    }

    func classify(_ answer: PushHTTPAnswer, to request: PushHTTPRequest) -> PushResult {
        switch answer {
        case .response(let status, _, _): return PushResult(kind: .failed, httpStatus: status, detail: "lab answer")
        case .transportFailure(let failure): return PushResult(kind: .failed, detail: "lab: \(failure.message)")
        }
    }
}
