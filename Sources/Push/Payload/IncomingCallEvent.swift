import Foundation
import Model

/// The call event of the React Native/Expo calls module contract, which apps
/// built on that module read from their pushes:
///
/// ```json
/// {"eventId": "6f1c…", "serverCallId": "<pairing id>", "hasVideo": false,
///  "startedAt": "2026-11-22T01:06:13.482Z",
///  "caller": {"id": "sip:alice@pbx.example.com", "displayName": "Alice", "phoneNumber": "+4915112345678"},
///  "metadata": {"callee": "bob", "event": "incoming-call"}}
/// ```
///
/// `eventId` is fresh for every push (lowercase UUID), `serverCallId` is the
/// call's pairing id (the INVITE's `X-Push-ID`), `caller.id` the caller's URI
/// (else user, else `anonymous`); `displayName` and `phoneNumber` (E.164
/// only) are left out when unknown.
///
/// An incoming call goes under the key `incomingCall`. The end of a call the
/// app was woken for (missed, or answered on another device) goes under the
/// key `callEnded`, with the same event plus `"reason": "missed"` or
/// `"reason": "answered-elsewhere"`.
///
/// - On APNs the payload is `{"incomingCall": <event>}` or `{"callEnded": <event>}`,
///   beside the `aps` dictionary the push type needs.
/// - On FCM the `data` object is `{"messageType": "incomingCall", "incomingCall": "<event as JSON text>"}`
///   (`messageType` `callEnded` and key `callEnded` for endings), since FCM data values are strings.
public struct IncomingCallEvent: Sendable, Equatable {
    public let message: PushMessage

    public init(_ message: PushMessage) {
        self.message = message
    }

    /// `incomingCall` or `callEnded`: the payload key and FCM `messageType`.
    public var messageType: String {
        message.event == .incomingCall ? "incomingCall" : "callEnded"
    }

    /// The event object.
    public var event: [String: PushJSONValue] {
        var caller: [String: PushJSONValue] = [
            "id": .string(message.callerURI ?? message.callerUser ?? "anonymous"),
        ]
        if let name = message.callerDisplayName { caller["displayName"] = .string(name) }
        if let number = message.callerE164 { caller["phoneNumber"] = .string(number) }
        var event: [String: PushJSONValue] = [
            "eventId": .string(message.eventID.uuidString.lowercased()),
            "serverCallId": .string(message.pairingID),
            "hasVideo": .bool(message.hasVideo),
            "startedAt": .string(ISO8601Time.milliseconds(message.callStartedAt)),
            "caller": .object(caller),
            "metadata": .object(["callee": .string(message.callee), "event": .string(message.event.rawValue)]),
        ]
        if message.event != .incomingCall { event["reason"] = .string(message.event.rawValue) }
        return event
    }

    /// The APNs payload's keys besides `aps`.
    public var apnsObject: [String: PushJSONValue] {
        [messageType: .object(event)]
    }

    /// The FCM `data` object.
    public var fcmData: [String: String] {
        ["messageType": messageType, messageType: String(decoding: event.jsonData, as: UTF8.self)]
    }
}
