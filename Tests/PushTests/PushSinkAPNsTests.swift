import Foundation
import PushSink
import XCTest

/// The push sink playing APNs over HTTP/2 and TLS: provider JWTs, the
/// `apns-*` header lines, payload limits, token rules in Apple's words.
final class PushSinkAPNsTests: XCTestCase {
    private var keys: SinkTestKeys!
    private let token = "8c7e52d3a4f1b6e0c9d2a7f3e1b4c6d8a0f2e4c6b8d0a2f4e6c8b0d2f4a6c8e0"
    private let voipPayload = #"{"aps":{},"Id":"a84b4c76e66710@pbx.example.com","verb":"NotifyIncomingCall"}"#

    override func setUpWithError() throws {
        keys = try SinkTestKeys()
    }

    override func tearDown() {
        keys?.remove()
    }

    private func headers(_ jwt: String?, topic: String? = "com.example.phone.voip", pushType: String? = "voip",
                         extra: [String: String] = [:]) -> [String: String] {
        var headers = extra
        headers["authorization"] = jwt.map { "bearer \($0)" }
        headers["apns-topic"] = topic
        headers["apns-push-type"] = pushType
        return headers
    }

    private func reason(_ answer: SinkCurl.Answer) -> String? {
        answer.object?["reason"] as? String
    }

    func testAGoodJWTIsAcceptedOverHTTP2AndRecordedWithoutIt() async throws {
        try await SinkOverTLS.run(keys) { _, curl in
            let jwt = try await keys.apnsJWT(issuedAt: Date().addingTimeInterval(-120))
            let apnsID = "6B0A5C2E-2B1F-4C4E-9A0E-3C1D2B4A5F6E"
            let answer = try curl.request("/3/device/\(token)", headers: headers(jwt, extra: [
                "apns-id": apnsID, "apns-priority": "10", "apns-expiration": "0",
            ]), body: voipPayload)
            XCTAssertEqual(answer.httpVersion, "2")
            XCTAssertEqual(answer.status, 200, answer.text)
            XCTAssertEqual(answer.headers["apns-id"], apnsID)
            XCTAssertEqual(answer.body, Data())

            let (records, text) = try curl.records()
            let record = try XCTUnwrap(records.last)
            XCTAssertEqual(record.provider, "apns")
            XCTAssertEqual(record.token, token)
            XCTAssertEqual(record.path, "/3/device/\(token)")
            XCTAssertEqual(record.status, 200)
            XCTAssertEqual(record.rule, "ok")
            XCTAssertNil(record.error)
            XCTAssertEqual(record.jwtKid, SinkOverTLS.keyID)
            XCTAssertEqual(record.jwtIss, SinkOverTLS.teamID)
            XCTAssertEqual(Double(record.jwtAgeSeconds ?? -1), 120, accuracy: 5)
            XCTAssertEqual(record.headers["apns-topic"], "com.example.phone.voip")
            XCTAssertEqual(record.headers["apns-push-type"], "voip")
            XCTAssertNil(record.headers["authorization"])
            XCTAssertEqual(record.payload?["aps"], .object([:]))
            XCTAssertEqual(record.payload?["verb"], .string("NotifyIncomingCall"))
            XCTAssertEqual(record.body["verb"], "NotifyIncomingCall")
            XCTAssertEqual(record.answerHeaders?["apns-id"], apnsID)
            XCTAssertFalse(text.contains(jwt), "the JWT must never be recorded")
            XCTAssertFalse(text.contains(String(jwt.split(separator: ".")[2])), "nor its signature")
        }
    }

    func testWithoutAnAPNsIDTheSinkAnswersANewUUID() async throws {
        try await SinkOverTLS.run(keys) { _, curl in
            let answer = try curl.request("/3/device/\(token)", headers: headers(try await keys.apnsJWT()), body: voipPayload)
            XCTAssertEqual(answer.status, 200)
            XCTAssertNotNil(UUID(uuidString: answer.headers["apns-id"] ?? ""), "\(answer.headers)")
        }
    }

    func testProviderTokenChecks() async throws {
        try await SinkOverTLS.run(keys) { sink, curl in
            let cases: [(String, String?, String)] = [
                ("missing", nil, "MissingProviderToken"),
                ("not a JWT", "not.a-jwt", "InvalidProviderToken"),
                ("other key", try await keys.apnsJWT(keyPath: keys.otherAPNsKey), "InvalidProviderToken"),
                ("other kid", try await keys.apnsJWT(kid: "OTHERKEY99"), "InvalidProviderToken"),
                ("other team", try await keys.apnsJWT(issuer: "OTHERTEAM1"), "InvalidProviderToken"),
                ("expired", try await keys.apnsJWT(issuedAt: Date().addingTimeInterval(-3700)), "ExpiredProviderToken"),
                ("future", try await keys.apnsJWT(issuedAt: Date().addingTimeInterval(600)), "InvalidProviderToken"),
            ]
            for (name, jwt, expected) in cases {
                let answer = try curl.request("/3/device/\(token)", headers: headers(jwt), body: voipPayload)
                XCTAssertEqual(answer.status, 403, name)
                XCTAssertEqual(answer.object as? [String: String], ["reason": expected], name)
                XCTAssertNotNil(answer.headers["apns-id"], name)
            }
            let records = sink.records()
            XCTAssertEqual(records.map(\.reason), cases.map(\.2))
            XCTAssertTrue(records.allSatisfy { $0.error != nil && $0.rule == nil })
            XCTAssertEqual(records[5].jwtAgeSeconds.map { $0 >= 3700 }, true)
        }
    }

    func testExpireProviderTokensRefusesThatJWTUntilANewOneComes() async throws {
        try await SinkOverTLS.run(keys, change: { $0.apns.expireProviderTokens = 1 }) { sink, curl in
            let first = try await keys.apnsJWT(issuedAt: Date().addingTimeInterval(-10))
            let refused = try curl.request("/3/device/\(token)", headers: headers(first), body: voipPayload)
            XCTAssertEqual(refused.status, 403)
            XCTAssertEqual(reason(refused), "ExpiredProviderToken")
            let again = try curl.request("/3/device/\(token)", headers: headers(first), body: voipPayload)
            XCTAssertEqual(again.status, 403, "the refused JWT stays refused")
            XCTAssertEqual(reason(again), "ExpiredProviderToken")

            let renewed = try await keys.apnsJWT()
            XCTAssertNotEqual(renewed, first)
            let accepted = try curl.request("/3/device/\(token)", headers: headers(renewed), body: voipPayload)
            XCTAssertEqual(accepted.status, 200, accepted.text)
            XCTAssertEqual(sink.records().map(\.status), [403, 403, 200])
        }
    }

    func testABadRequestIsNotCountedAgainstExpireProviderTokens() async throws {
        try await SinkOverTLS.run(keys, change: { $0.apns.expireProviderTokens = 1 }) { _, curl in
            let jwt = try await keys.apnsJWT()
            let noTopic = try curl.request("/3/device/\(token)", headers: headers(jwt, topic: nil), body: voipPayload)
            XCTAssertEqual(reason(noTopic), "MissingTopic")
            let expired = try curl.request("/3/device/\(token)", headers: headers(jwt), body: voipPayload)
            XCTAssertEqual(reason(expired), "ExpiredProviderToken")
        }
    }

    func testHeaderAndPayloadChecks() async throws {
        try await SinkOverTLS.run(keys) { _, curl in
            let jwt = try await keys.apnsJWT()
            let big = #"{"aps":{},"pad":""# + String(repeating: "x", count: 5120 - 19) + #""}"#
            XCTAssertEqual(big.utf8.count, 5120)
            let bigger = #"{"aps":{},"pad":""# + String(repeating: "x", count: 5121 - 19) + #""}"#
            let cases: [(String, [String: String], String, Int, String?)] = [
                ("no topic", headers(jwt, topic: nil), voipPayload, 400, "MissingTopic"),
                ("voip topic", headers(jwt, topic: "com.example.phone"), voipPayload, 400, "DeviceTokenNotForTopic"),
                ("push type", headers(jwt, pushType: "shout"), voipPayload, 400, "InvalidPushType"),
                ("priority", headers(jwt, extra: ["apns-priority": "7"]), voipPayload, 400, "BadPriority"),
                ("apns-id", headers(jwt, extra: ["apns-id": "nope"]), voipPayload, 400, "BadMessageId"),
                ("expiration", headers(jwt, extra: ["apns-expiration": "soon"]), voipPayload, 400, "BadExpirationDate"),
                ("not JSON", headers(jwt), "{oops", 400, "BadPayload"),
                ("voip at the limit", headers(jwt), big, 200, nil),
                ("voip over the limit", headers(jwt), bigger, 413, "PayloadTooLarge"),
                ("alert over 4096", headers(jwt, topic: "com.example.phone", pushType: "alert"), big, 413, "PayloadTooLarge"),
            ]
            for (name, headers, body, status, expected) in cases {
                let answer = try curl.request("/3/device/\(token)", headers: headers, body: body)
                XCTAssertEqual(answer.status, status, name)
                XCTAssertEqual(reason(answer), expected, name)
            }
            let empty = try curl.request("/3/device/\(token)", headers: headers(jwt))
            XCTAssertEqual(reason(empty), "PayloadEmpty")
        }
    }

    func testTokenRulesAnswerInApplesWords() async throws {
        try await SinkOverTLS.run(keys, change: { settings in
            settings.rules = ["gone-token": .gone, "bad-token": .bad, "busy-token": .fail(status: 429),
                              "down-token": .fail(status: 503), "broken-token": .fail(status: 500)]
            settings.retryAfter = 7
        }) { sink, curl in
            let jwt = try await keys.apnsJWT()
            let before = Date().timeIntervalSince1970 * 1000
            let gone = try curl.request("/3/device/gone-token", headers: headers(jwt), body: voipPayload)
            XCTAssertEqual(gone.status, 410)
            let object = try XCTUnwrap(gone.object)
            XCTAssertEqual(Set(object.keys), ["reason", "timestamp"])
            XCTAssertEqual(object["reason"] as? String, "Unregistered")
            let timestamp = try XCTUnwrap(object["timestamp"] as? NSNumber).doubleValue
            XCTAssertEqual(timestamp, before, accuracy: 10_000, "milliseconds since 1970")
            XCTAssertTrue(gone.text.hasPrefix(#"{"reason":"Unregistered","timestamp":"#), gone.text)

            let expected: [(String, Int, String, String?)] = [
                ("bad-token", 400, "BadDeviceToken", nil), ("busy-token", 429, "TooManyRequests", "7"),
                ("down-token", 503, "ServiceUnavailable", "7"), ("broken-token", 500, "InternalServerError", nil),
            ]
            for (device, status, expectedReason, retryAfter) in expected {
                let answer = try curl.request("/3/device/\(device)", headers: headers(jwt), body: voipPayload)
                XCTAssertEqual(answer.status, status, device)
                XCTAssertEqual(answer.text, #"{"reason":"\#(expectedReason)"}"#, device)
                XCTAssertEqual(answer.headers["retry-after"], retryAfter, device)
            }
            let records = sink.records()
            XCTAssertEqual(records.map(\.rule), ["gone", "bad", "fail:429", "fail:503", "fail:500"])
            XCTAssertEqual(records.map(\.reason), ["Unregistered", "BadDeviceToken", "TooManyRequests", "ServiceUnavailable", "InternalServerError"])
            XCTAssertEqual(records[1].answerHeaders?["retry-after"], nil)
            XCTAssertEqual(records[2].answerHeaders?["retry-after"], "7")
        }
    }

    func testASlowRuleAnswersLate() async throws {
        try await SinkOverTLS.run(keys, change: { $0.rules = ["slow-token": .slow(milliseconds: 600)] }) { _, curl in
            let jwt = try await keys.apnsJWT()
            let started = ContinuousClock.now
            let answer = try curl.request("/3/device/slow-token", headers: headers(jwt), body: voipPayload)
            XCTAssertEqual(answer.status, 200)
            XCTAssertGreaterThanOrEqual(ContinuousClock.now - started, .milliseconds(600))
        }
    }

    func testRulesSetAtRunTimeHoldForAPNs() async throws {
        try await SinkOverTLS.run(keys) { _, curl in
            let set = try curl.request("/rules", body: #"{"token":"\#(token)","rule":"bad"}"#)
            XCTAssertEqual(set.status, 200, set.text)
            let answer = try curl.request("/3/device/\(token)", headers: headers(try await keys.apnsJWT()), body: voipPayload)
            XCTAssertEqual(answer.status, 400)
            XCTAssertEqual(reason(answer), "BadDeviceToken")
        }
    }
}
