import Foundation
import Model
import Ports
import Push
import Testing

/// The payload formats of direct pushes, as exact JSON.
@Suite struct PushPayloadFormatTests {
    let startedAt = "2023-11-14T22:13:18.482Z"

    @Test func formatNames() throws {
        #expect(PushPayloadFormat.acrobits.name == "acrobits")
        #expect(PushPayloadFormat.incomingCallEvent.name == "incoming-call-event")
        #expect(try PushPayloadFormat.template(PushTemplate(source: "{}")).name == "template")
    }

    @Test func incomingCallEventOnAPNs() throws {
        let message = DirectPushFixtures.message()
        let payload = try APNsFixtures.provider(format: .incomingCallEvent).payload(for: message).get()
        #expect(DirectPushFixtures.text(payload) == """
            {"aps":{},"incomingCall":{"caller":{"displayName":"Alice Smith","id":"sip:+4915112345678@pbx.example.com",\
            "phoneNumber":"+4915112345678"},"eventId":"6f1c2a3b-4d5e-4f60-8172-93a4b5c6d7e8","hasVideo":true,\
            "metadata":{"callee":"bob","event":"incoming-call"},"serverCallId":"call-1@pbx.example.com",\
            "startedAt":"\(startedAt)"}}
            """)
    }

    @Test func callEndedOnAPNsCarriesTheReason() throws {
        var message = DirectPushFixtures.message(event: .answeredElsewhere, callerName: nil, callerUser: "alice", media: nil)
        message.callerURI = nil
        let payload = try APNsFixtures.provider(format: .incomingCallEvent).payload(for: message).get()
        #expect(DirectPushFixtures.text(payload) == """
            {"aps":{"content-available":1},"callEnded":{"caller":{"id":"alice"},\
            "eventId":"6f1c2a3b-4d5e-4f60-8172-93a4b5c6d7e8","hasVideo":false,\
            "metadata":{"callee":"bob","event":"answered-elsewhere"},"reason":"answered-elsewhere",\
            "serverCallId":"call-1@pbx.example.com","startedAt":"\(startedAt)"}}
            """)
    }

    @Test func anAnonymousCallerHasOnlyAnID() {
        var message = DirectPushFixtures.message(callerName: nil, callerUser: nil)
        message.callerURI = nil
        #expect(IncomingCallEvent(message).event["caller"] == .object(["id": .string("anonymous")]))
    }

    /// A From sipwake could not read leaves an empty caller URI: the event
    /// names the caller by user, else `anonymous`, never by "".
    @Test func anEmptyCallerURIIsNoURI() {
        let message = PushMessage(provider: "apns", event: .incomingCall, tupleID: 9, appID: "com.example.phone",
                                  deviceToken: DirectPushFixtures.apnsToken, selector: "sel-1", pairingID: "call-1",
                                  callerDisplayName: nil, callerUser: nil, callerDomain: nil, media: nil, badge: nil,
                                  sound: nil, sentAt: DirectPushFixtures.sentAt, callerURI: "")
        #expect(message.callerURI == nil)
        #expect(IncomingCallEvent(message).event["caller"] == .object(["id": .string("anonymous")]))
    }

    @Test func thePhoneNumberIsThereOnlyInE164() {
        for (user, number) in [("+49 151 1234-5678", "+4915112345678"), ("+1 (555) 123.4567", "+15551234567"),
                               ("015112345678", nil), ("+0123", nil), ("alice", nil), ("+1234567890123456", nil)] {
            let event = IncomingCallEvent(DirectPushFixtures.message(callerUser: user)).event
            guard case .object(let caller)? = event["caller"] else { Issue.record("no caller"); continue }
            #expect(caller["phoneNumber"] == number.map(PushJSONValue.string), "\(user)")
        }
    }

    @Test func incomingCallEventOnFCMIsTheEventAsText() throws {
        let message = DirectPushFixtures.message(event: .missed)
        let data = IncomingCallEvent(message).fcmData
        #expect(data.keys.sorted() == ["callEnded", "messageType"])
        #expect(data["messageType"] == "callEnded")
        #expect(data["callEnded"] == """
            {"caller":{"displayName":"Alice Smith","id":"sip:+4915112345678@pbx.example.com",\
            "phoneNumber":"+4915112345678"},"eventId":"6f1c2a3b-4d5e-4f60-8172-93a4b5c6d7e8","hasVideo":true,\
            "metadata":{"callee":"bob","event":"missed"},"reason":"missed","serverCallId":"call-1@pbx.example.com",\
            "startedAt":"\(startedAt)"}
            """)
        let incoming = IncomingCallEvent(DirectPushFixtures.message()).fcmData
        #expect(incoming["messageType"] == "incomingCall")
        #expect(incoming["incomingCall"]?.hasPrefix(#"{"caller":"#) == true)
    }

    @Test func acrobitsFormatIsTheGatewayFields() throws {
        let message = DirectPushFixtures.message()
        let fields = AcrobitsPayload(message).fields
        #expect(AcrobitsAppPayload(message).fcmData == fields)
        let payload = try APNsFixtures.provider(format: .acrobits).payload(for: message).get()
        var expected: [String: PushJSONValue] = fields.mapValues(PushJSONValue.string)
        expected["aps"] = .object([:])
        #expect(try JSONDecoder().decode(PushJSONValue.self, from: payload) == .object(expected))
        #expect(fields["verb"] == "NotifyIncomingCall")
    }
}
