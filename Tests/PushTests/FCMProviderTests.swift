import Foundation
import Model
import Ports
import Push
import Testing

/// What the FCM provider sends, and what it makes of FCM's answers.
@Suite struct FCMProviderTests {
    let now = DirectPushFixtures.sentAt

    func request(_ message: PushMessage = DirectPushFixtures.message(provider: "fcm"), provider: FCMProvider) throws
        -> PushHTTPRequest
    {
        guard case .send(let request) = provider.request(for: message, at: now) else { throw PushTemplateError("no request") }
        return request
    }

    @Test func aPushIsAHighPriorityDataMessageToTheProject() throws {
        let provider = try FCMFixtures.provider(format: .incomingCallEvent)
        let request = try request(provider: provider)
        #expect(request.url == "https://fcm.googleapis.com/v1/projects/phone-project/messages:send")
        #expect(request.headers == [PushHTTPHeader("authorization", "Bearer \(FCMFixtures.accessToken)"),
                                    PushHTTPHeader("content-type", "application/json; charset=utf-8")])
        let event = IncomingCallEvent(DirectPushFixtures.message(provider: "fcm")).fcmData
        let expected: PushJSONValue = .object(["message": .object([
            "token": .string(DirectPushFixtures.apnsToken),
            "data": .object(event.mapValues(PushJSONValue.string)),
            "android": .object(["priority": .string("high"), "ttl": .string("30s")]),
        ])])
        #expect(try JSONDecoder().decode(PushJSONValue.self, from: request.body) == expected)
    }

    @Test func endingsLiveAsLongAsTheyAreUseful() throws {
        let provider = try FCMFixtures.provider()
        for (event, ttl) in [(PushEvent.missed, "86400s"), (.answeredElsewhere, "30s")] {
            let body = try request(DirectPushFixtures.message(event: event, provider: "fcm"), provider: provider).body
            let object = try JSONDecoder().decode([String: [String: PushJSONValue]].self, from: body)
            #expect(object["message"]?["android"] == .object(["priority": .string("high"), "ttl": .string(ttl)]))
        }
    }

    static func refresh(purr: String? = "purr-1") -> PushMessage {
        var message = DirectPushFixtures.message(event: .bindingRefresh, provider: "fcm")
        message.purr = purr
        return message
    }

    @Test func aBindingRefreshIsAHighPriorityDataMessageForAMinuteWhateverTheAppsFormat() throws {
        let template = try PushTemplate(source: #"{"title": "{{caller_name}}", "call": "{{pairing_id}}"}"#)
        for format in [PushPayloadFormat.incomingCallEvent, .acrobits, .template(template)] {
            let body = try request(Self.refresh(), provider: try FCMFixtures.provider(format: format)).body
            let expected: PushJSONValue = .object(["message": .object([
                "token": .string(DirectPushFixtures.apnsToken),
                "data": .object(["type": .string("binding-refresh"), "pn-purr": .string("purr-1")]),
                "android": .object(["priority": .string("high"), "ttl": .string("60s")]),
            ])])
            #expect(try JSONDecoder().decode(PushJSONValue.self, from: body) == expected, "\(format.name)")
        }
    }

    @Test func aBindingRefreshWithoutAPURRLeavesItOut() throws {
        let body = try request(Self.refresh(purr: nil), provider: try FCMFixtures.provider()).body
        let object = try JSONDecoder().decode([String: [String: PushJSONValue]].self, from: body)
        #expect(object["message"]?["data"] == .object(["type": .string("binding-refresh")]))
    }

    @Test func aLabURLReplacesGoogles() throws {
        let provider = try FCMFixtures.provider(url: "http://127.0.0.1:9/")
        #expect(try request(provider: provider).url == "http://127.0.0.1:9/v1/projects/phone-project/messages:send")
    }

    @Test func withoutAnAccessTokenThePushWaits() throws {
        let provider = try FCMFixtures.provider(store: PushCredentialStore())
        #expect(provider.request(for: DirectPushFixtures.message(), at: now) == .waitForCredential)
    }

    static func error(_ code: Int, _ status: String, _ message: String, errorCode: String? = nil,
                      field: String? = nil) -> String {
        var details: [String] = []
        if let errorCode {
            details.append(#"{"@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError","errorCode":"\#(errorCode)"}"#)
        }
        if let field {
            details.append(#"{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"field":"\#(field)","description":"Invalid value"}]}"#)
        }
        return #"{"error":{"code":\#(code),"message":"\#(message)","status":"\#(status)","details":[\#(details.joined(separator: ","))]}}"#
    }

    func classify(_ status: Int, _ body: String, headers: [PushHTTPHeader] = [], provider: FCMProvider? = nil) throws
        -> PushResult
    {
        let provider = try provider ?? FCMFixtures.provider()
        return provider.classify(.response(status: status, headers: headers, body: Data(body.utf8)),
                                 to: try request(provider: provider))
    }

    @Test func answersAreClassified() throws {
        #expect(try classify(200, #"{"name":"projects/phone-project/messages/0:1"}"#) == .delivered(status: 200))
        #expect(try classify(404, Self.error(404, "NOT_FOUND", "Requested entity was not found.", errorCode: "UNREGISTERED"))
            == .tokenGone(status: 404, detail: "UNREGISTERED: Requested entity was not found."))
        #expect(try classify(404, Self.error(404, "NOT_FOUND", "Project not found.")).kind == .failed)
        #expect(try classify(400, Self.error(400, "INVALID_ARGUMENT",
                                             "The registration token is not a valid FCM registration token",
                                             errorCode: "INVALID_ARGUMENT"))
            == .tokenGone(status: 400, detail: "INVALID_ARGUMENT: The registration token is not a valid FCM registration token"))
        #expect(try classify(400, Self.error(400, "INVALID_ARGUMENT", "Request contains an invalid argument.",
                                             field: "message.token")).kind == .tokenGone)
        #expect(try classify(400, Self.error(400, "INVALID_ARGUMENT", "Invalid value at 'message.data[0].value'",
                                             errorCode: "INVALID_ARGUMENT"))
            == .failed(status: 400, detail: "INVALID_ARGUMENT: Invalid value at 'message.data[0].value'"))
        let mismatch = try classify(403, Self.error(403, "PERMISSION_DENIED", "SenderId mismatch", errorCode: "SENDER_ID_MISMATCH"))
        #expect(mismatch.kind == .failed)
        #expect(mismatch.detail?.hasPrefix("SENDER_ID_MISMATCH: configuration error") == true)
        #expect(try classify(429, Self.error(429, "RESOURCE_EXHAUSTED", "Quota exceeded", errorCode: "QUOTA_EXCEEDED"),
                             headers: [PushHTTPHeader("retry-after", "12")])
            == .retryable(status: 429, detail: "QUOTA_EXCEEDED: Quota exceeded", retryAfter: 12))
        #expect(try classify(503, Self.error(503, "UNAVAILABLE", "The service is currently unavailable.", errorCode: "UNAVAILABLE"))
            == .retryable(status: 503, detail: "UNAVAILABLE: The service is currently unavailable."))
        #expect(try classify(500, "oops").kind == .retryable)
    }

    @Test func aRefusedAccessTokenIsDroppedOnce() throws {
        let store = APNsFixtures.store(token: FCMFixtures.accessToken)
        let provider = try FCMFixtures.provider(store: store)
        let sent = try request(provider: provider)
        let body = Self.error(401, "UNAUTHENTICATED", "Request had invalid authentication credentials.")
        let result = provider.classify(.response(status: 401, headers: [], body: Data(body.utf8)), to: sent)
        #expect(result == .retryable(status: 401, detail: "UNAUTHENTICATED: access token renewed"))
        #expect(store.current(at: now) == nil)
        store.set(PushCredential(token: "ya29.new", issuedAt: now, expiresAt: now.addingTimeInterval(3600)))
        _ = provider.classify(.response(status: 401, headers: [], body: Data(body.utf8)), to: sent)
        #expect(store.current(at: now) == "ya29.new")
    }
}
