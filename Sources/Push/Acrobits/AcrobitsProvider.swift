import Foundation
import Model
import Ports

/// The Acrobits push gateway (`pnm2/send`): it forwards the push to APNs or
/// FCM for the Acrobits app the device tuple names. Its verbs are about
/// calls: a binding-refresh push is refused, never sent.
public struct AcrobitsProvider: PushProvider {
    /// The provider name device tuples use.
    public static let name = "acrobits"

    public let settings: AcrobitsSettings

    public init(settings: AcrobitsSettings) {
        self.settings = settings
    }

    public var name: String { Self.name }

    public func request(for message: PushMessage, at now: Date) -> PushRequestPlan {
        guard AcrobitsVerb(message.event) != nil else {
            return .refuse(.failed(status: nil, detail: "no \(message.event.rawValue) push through the Acrobits gateway"))
        }
        return .send(PushHTTPRequest(
            url: settings.gatewayURL, method: "POST",
            headers: [PushHTTPHeader("Content-Type", "application/json"), PushHTTPHeader("Accept", "application/json")]
                + settings.extraHeaders,
            body: AcrobitsPayload(message).jsonBody))
    }

    public func classify(_ answer: PushHTTPAnswer, to request: PushHTTPRequest) -> PushResult {
        switch answer {
        case .response(let status, let headers, let body):
            var result = AcrobitsAnswer.classify(status: status, body: body)
            // A busy or failing gateway may say when to come back.
            if result.kind == .retryable { result.retryAfter = PushRetryAfter.seconds(in: headers) }
            return result
        case .transportFailure(let failure): return AcrobitsAnswer.classify(failure)
        }
    }
}
