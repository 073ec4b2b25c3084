import Foundation
import Model
import Ports
import Push
import Testing

/// What the APNs provider sends, and what it makes of Apple's answers.
@Suite struct APNsProviderTests {
    let now = DirectPushFixtures.sentAt

    func request(_ message: PushMessage = DirectPushFixtures.message(), provider: APNsProvider = APNsFixtures.provider())
        throws -> PushHTTPRequest
    {
        guard case .send(let request) = provider.request(for: message, at: now) else {
            throw PushTemplateError("no request")
        }
        return request
    }

    func headers(_ request: PushHTTPRequest) -> [String: String] {
        Dictionary(request.headers.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })
    }

    @Test func anIncomingCallIsAVoIPPushToTheDevicesPath() throws {
        let request = try request()
        #expect(request.method == "POST")
        #expect(request.url == "https://api.push.apple.com/3/device/\(DirectPushFixtures.apnsToken)")
        #expect(headers(request) == [
            "authorization": "bearer \(APNsFixtures.jwt)",
            "apns-push-type": "voip",
            "apns-topic": "com.example.phone.voip",
            "apns-priority": "10",
            "apns-expiration": "1700000030",
            "apns-id": "6F1C2A3B-4D5E-4F60-8172-93A4B5C6D7E8",
            "content-type": "application/json",
        ])
    }

    @Test func sandboxAndLabURLs() throws {
        #expect(try request(provider: APNsFixtures.provider(sandbox: true)).url
            == "https://api.sandbox.push.apple.com/3/device/\(DirectPushFixtures.apnsToken)")
        #expect(try request(provider: APNsFixtures.provider(url: "http://127.0.0.1:9/")).url
            == "http://127.0.0.1:9/3/device/\(DirectPushFixtures.apnsToken)")
    }

    @Test func aMissedCallIsAnAlertToTheBundle() throws {
        let request = try request(DirectPushFixtures.message(event: .missed))
        let headers = headers(request)
        #expect(headers["apns-push-type"] == "alert")
        #expect(headers["apns-topic"] == "com.example.phone")
        #expect(headers["apns-priority"] == "10")
        #expect(headers["apns-expiration"] == "1700086400")
        let object = try JSONDecoder().decode([String: PushJSONValue].self, from: request.body)
        #expect(object["aps"] == .object([
            "alert": .object(["title": .string("Missed call"), "body": .string("Alice Smith")]),
            "sound": .string("ring.caf"), "badge": .integer(2), "thread-id": .string("call-1@pbx.example.com"),
        ]))
    }

    @Test func answeredElsewhereIsASilentPushThatDoesNotWait() throws {
        let request = try request(DirectPushFixtures.message(event: .answeredElsewhere))
        let headers = headers(request)
        #expect(headers["apns-push-type"] == "background")
        #expect(headers["apns-topic"] == "com.example.phone")
        #expect(headers["apns-priority"] == "5")
        #expect(headers["apns-expiration"] == "0")
    }

    static func refresh(purr: String? = "purr-1") -> PushMessage {
        var message = DirectPushFixtures.message(event: .bindingRefresh)
        message.purr = purr
        return message
    }

    @Test func aBindingRefreshIsABackgroundPushToTheBundleForAMinute() throws {
        let request = try request(Self.refresh())
        #expect(request.url == "https://api.push.apple.com/3/device/\(DirectPushFixtures.apnsToken)")
        #expect(headers(request) == [
            "authorization": "bearer \(APNsFixtures.jwt)",
            "apns-push-type": "background",
            "apns-topic": "com.example.phone",
            "apns-priority": "5",
            "apns-expiration": "1700000060",
            "apns-id": "6F1C2A3B-4D5E-4F60-8172-93A4B5C6D7E8",
            "content-type": "application/json",
        ])
        #expect(DirectPushFixtures.text(request.body) == #"{"aps":{"content-available":1},"pn-purr":"purr-1"}"#)
    }

    @Test func aBindingRefreshCarriesNoCallWhateverTheAppsFormat() throws {
        let template = try PushTemplate(source: #"{"aps": {"alert": "{{caller_name}}"}, "call": "{{pairing_id}}"}"#)
        for format in [PushPayloadFormat.incomingCallEvent, .acrobits, .template(template)] {
            let request = try request(Self.refresh(), provider: APNsFixtures.provider(format: format))
            #expect(DirectPushFixtures.text(request.body) == #"{"aps":{"content-available":1},"pn-purr":"purr-1"}"#,
                    "\(format.name)")
        }
    }

    @Test func aBindingRefreshWithoutAPURRLeavesItOut() throws {
        #expect(DirectPushFixtures.text(try request(Self.refresh(purr: nil)).body) == #"{"aps":{"content-available":1}}"#)
    }

    @Test func withoutAProviderTokenThePushWaits() {
        let provider = APNsFixtures.provider(store: APNsFixtures.store(token: nil))
        #expect(provider.request(for: DirectPushFixtures.message(), at: now) == .waitForCredential)
        // An expired token is no token.
        let stale = APNsFixtures.provider()
        #expect(stale.request(for: DirectPushFixtures.message(), at: now.addingTimeInterval(3600)) == .waitForCredential)
    }

    @Test func aPayloadOverApplesLimitIsNotSent() throws {
        let exact = try PushTemplate(source: #"{"pad": "{{caller_name}}"}"#)
        // {"aps":{},"pad":"…"} is 19 bytes around the name.
        let fits = DirectPushFixtures.message(callerName: String(repeating: "x", count: 5120 - 19))
        let over = DirectPushFixtures.message(callerName: String(repeating: "x", count: 5120 - 18))
        let provider = APNsFixtures.provider(format: .template(exact))
        #expect(try request(fits, provider: provider).body.count == 5120)
        #expect(provider.request(for: over, at: now)
            == .refuse(.failed(status: nil, detail: "payload 5121 bytes over APNs limit 5120")))
        var missed = over
        missed.event = .missed
        guard case .refuse(let result) = provider.request(for: missed, at: now) else {
            Issue.record("sent")
            return
        }
        #expect(result.detail?.hasSuffix("over APNs limit 4096") == true)
    }

    func classify(_ status: Int, _ body: String, headers: [PushHTTPHeader] = [],
                  provider: APNsProvider = APNsFixtures.provider()) throws -> PushResult {
        provider.classify(.response(status: status, headers: headers, body: Data(body.utf8)), to: try request(provider: provider))
    }

    @Test func answersAreClassified() throws {
        #expect(try classify(200, "") == .delivered(status: 200))
        #expect(try classify(410, #"{"reason":"Unregistered","timestamp":1700000000000}"#)
            == .tokenGone(status: 410, detail: "Unregistered"))
        #expect(try classify(400, #"{"reason":"BadDeviceToken"}"#) == .tokenGone(status: 400, detail: "BadDeviceToken"))
        #expect(try classify(400, #"{"reason":"DeviceTokenNotForTopic"}"#)
            == .tokenGone(status: 400, detail: "DeviceTokenNotForTopic"))
        #expect(try classify(400, #"{"reason":"BadExpirationDate"}"#) == .failed(status: 400, detail: "BadExpirationDate"))
        #expect(try classify(403, #"{"reason":"InvalidProviderToken"}"#).kind == .failed)
        #expect(try classify(403, #"{"reason":"InvalidProviderToken"}"#).detail?.contains("configuration error") == true)
        let tooLarge = try classify(413, #"{"reason":"PayloadTooLarge"}"#)
        #expect(tooLarge.kind == .failed)
        #expect(tooLarge.detail?.hasPrefix("PayloadTooLarge: configuration error") == true)
        #expect(try classify(429, #"{"reason":"TooManyRequests"}"#, headers: [PushHTTPHeader("Retry-After", "30")])
            == .retryable(status: 429, detail: "TooManyRequests", retryAfter: 30))
        #expect(try classify(503, #"{"reason":"ServiceUnavailable"}"#)
            == .retryable(status: 503, detail: "ServiceUnavailable"))
        #expect(try classify(500, "") == .retryable(status: 500, detail: "HTTP 500"))
    }

    @Test func transportFailures() throws {
        let provider = APNsFixtures.provider()
        let request = try request()
        func classify(_ reason: PushTransportFailure.Reason) -> PushResult {
            provider.classify(.transportFailure(PushTransportFailure(reason: reason, message: "boom")), to: request)
        }
        #expect(classify(.timeout) == .retryable(status: nil, detail: "timeout: boom"))
        #expect(classify(.network) == .retryable(status: nil, detail: "boom"))
        #expect(classify(.setup) == .failed(status: nil, detail: "boom"))
    }

    @Test func anExpiredProviderTokenIsDroppedOnceAndTheRetryWaits() throws {
        let store = APNsFixtures.store()
        let provider = APNsFixtures.provider(store: store)
        let sent = try request(provider: provider)
        let expired = #"{"reason":"ExpiredProviderToken"}"#
        let result = try classify(403, expired, provider: provider)
        #expect(result == .retryable(status: 403, detail: "ExpiredProviderToken: provider token renewed"))
        #expect(store.current(at: now) == nil)
        #expect(provider.request(for: DirectPushFixtures.message(), at: now) == .waitForCredential)
        // A new token is in: a late answer to the old one does not drop it.
        store.set(PushCredential(token: "new-jwt", issuedAt: now, expiresAt: now.addingTimeInterval(3600)))
        _ = provider.classify(.response(status: 403, headers: [], body: Data(expired.utf8)), to: sent)
        #expect(store.current(at: now) == "new-jwt")
    }

    @Test func detailsNeverCarryTheProviderToken() throws {
        for status in [200, 400, 403, 410, 413, 429, 500] {
            let result = try classify(status, #"{"reason":"ExpiredProviderToken"}"#)
            #expect(result.detail?.contains(APNsFixtures.jwt) != true)
        }
    }
}
