import Crypto
import Foundation
import Model

/// The JSON event posted to the customer's webhook for one push of a call,
/// after DialStack's `call.mobile_push_wakeup` (seed 000):
///
///     {"id": "evt_…", "type": "call.mobile_push_wakeup",
///      "created_at": "2026-04-10T14:30:00Z", "account_id": "example.com",
///      "data": {"call_id": "<pairing id = X-Push-ID>", "user_id": "alice",
///               "from_number": "+14155551234", "from_name": "John Smith",
///               "to_number": "alice", "ringing_at": "2026-04-10T14:30:00Z"}}
///
/// The end events (`call.missed`, `call.answered_elsewhere`,
/// `call.cancelled`) carry the same `data` and the call's `outcome`. The
/// `id` is the same for a retry of the same event, so a backend that
/// processed the first try can drop the second. A binding-refresh push
/// concerns no call and has no event.
public struct WebhookPayload: Sendable, Equatable {
    public let message: PushMessage
    /// The account (the called domain) the event is for.
    public let account: String
    public let type: CallWebhookType

    /// Nil when `message` has no webhook event (a binding-refresh push).
    public init?(_ message: PushMessage, account: String) {
        guard let type = CallWebhookType(event: message.event, outcome: message.callOutcome) else { return nil }
        self.message = message
        self.account = account
        self.type = type
    }

    /// `evt_` and 26 hex digits of SHA-256 over the call (its pairing id and
    /// start) and the event type: one id per event of a call, whatever the attempt.
    public var eventID: String {
        let started = Int64((message.callStartedAt.timeIntervalSince1970 * 1000).rounded())
        let digest = SHA256.hash(data: Data("\(message.pairingID)|\(started)|\(type.rawValue)".utf8))
        return "evt_" + digest.prefix(13).map { String(format: "%02x", $0) }.joined()
    }

    /// The envelope as a JSON object; absent caller fields are `null`.
    public var object: [String: Any] {
        var data: [String: Any] = [
            "call_id": message.pairingID,
            "user_id": message.callee,
            "from_number": Self.orNull(message.callerE164 ?? message.callerUser),
            "from_name": Self.orNull(message.callerDisplayName),
            "to_number": message.calledNumber ?? message.callee,
            "ringing_at": Self.time(message.callStartedAt),
        ]
        if message.event != .incomingCall, let outcome = message.callOutcome {
            data["outcome"] = outcome.rawValue
        }
        return [
            "id": eventID,
            "type": type.rawValue,
            "created_at": Self.time(message.sentAt),
            "account_id": account,
            "data": data,
        ]
    }

    /// The request body: ``object`` as JSON with sorted keys.
    public var jsonBody: Data {
        // Strings, NSNull and a nested dictionary always serialize.
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data("{}".utf8)
    }

    /// `text`, or JSON's `null` when there is none.
    static func orNull(_ text: String?) -> Any {
        guard let text else { return NSNull() }
        return text
    }

    /// `2026-04-10T14:30:00Z`.
    static func time(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle())
    }
}
