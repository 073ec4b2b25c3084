import Foundation
import PushSink
import XCTest

/// The push sink playing Google's OAuth token endpoint and FCM HTTP v1 over
/// HTTP/2 and TLS: assertions, access tokens, messages, token rules in
/// Google's error shapes.
final class PushSinkFCMTests: XCTestCase {
    private var keys: SinkTestKeys!
    private let fcmToken = "dQw4w9WgXcQ:APA91bHun4MxP5egoKMwt2KZFBaFUH-1RYqx"
    private let grantType = "urn:ietf:params:oauth:grant-type:jwt-bearer"

    override func setUpWithError() throws {
        keys = try SinkTestKeys()
    }

    override func tearDown() {
        keys?.remove()
    }

    private func grant(_ curl: SinkCurl, _ assertion: String) throws -> SinkCurl.Answer {
        try curl.request("/token", headers: ["content-type": "application/x-www-form-urlencoded"],
                         body: "grant_type=\(grantType.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)&assertion=\(assertion)")
    }

    /// An access token from the sink's own endpoint.
    private func accessToken(_ curl: SinkCurl) async throws -> String {
        let answer = try grant(curl, try await keys.assertion(audience: "\(curl.baseURL)/token"))
        XCTAssertEqual(answer.status, 200, answer.text)
        return try XCTUnwrap(answer.object?["access_token"] as? String)
    }

    private func send(_ curl: SinkCurl, bearer: String?, project: String = SinkOverTLS.project,
                      message: String) throws -> SinkCurl.Answer {
        var headers = ["content-type": "application/json"]
        headers["authorization"] = bearer.map { "Bearer \($0)" }
        return try curl.request("/v1/projects/\(project)/messages:send", headers: headers, body: #"{"message":\#(message)}"#)
    }

    private func message(token: String) -> String {
        #"{"token":"\#(token)","data":{"verb":"NotifyIncomingCall","Id":"a84b4c76"},"android":{"priority":"high","ttl":"30s"}}"#
    }

    /// The answer's JSON with sorted keys, to compare with Google's exact shape.
    private func canonical(_ data: Data) throws -> String {
        let object = try JSONSerialization.jsonObject(with: data)
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]), as: UTF8.self)
    }

    func testAGrantIsAnsweredWithAnAccessTokenAndNotRecordedWithIt() async throws {
        try await SinkOverTLS.run(keys, change: { $0.fcm.accessTokenLifetime = 1234 }) { _, curl in
            let assertion = try await keys.assertion(audience: "\(curl.baseURL)/token")
            let answer = try grant(curl, assertion)
            XCTAssertEqual(answer.httpVersion, "2")
            XCTAssertEqual(answer.status, 200, answer.text)
            let object = try XCTUnwrap(answer.object)
            XCTAssertEqual(Set(object.keys), ["access_token", "expires_in", "token_type"])
            XCTAssertEqual(object["expires_in"] as? Int, 1234)
            XCTAssertEqual(object["token_type"] as? String, "Bearer")
            let accessToken = try XCTUnwrap(object["access_token"] as? String)
            XCTAssertFalse(accessToken.isEmpty)

            let (records, text) = try curl.records()
            let record = try XCTUnwrap(records.first)
            XCTAssertEqual(record.provider, "oauth")
            XCTAssertEqual(record.status, 200)
            XCTAssertEqual(record.body, ["grant_type": grantType])
            XCTAssertEqual(record.jwtIss, SinkTestKeys.clientEmail)
            XCTAssertEqual(record.jwtKid, "0123456789abcdef")
            XCTAssertFalse(text.contains(assertion), "the assertion must never be recorded")
            XCTAssertFalse(text.contains(accessToken), "nor the access token")
        }
    }

    func testGoogleTokenURIIsAnAudienceToo() async throws {
        try await SinkOverTLS.run(keys) { _, curl in
            let answer = try grant(curl, try await keys.assertion(audience: "https://oauth2.googleapis.com/token"))
            XCTAssertEqual(answer.status, 200, answer.text)
        }
    }

    func testBadAssertionsAreRefused() async throws {
        try await SinkOverTLS.run(keys) { sink, curl in
            let audience = "\(curl.baseURL)/token"
            let cases: [(String, String, String)] = [
                ("other key", try await keys.assertion(keyPath: keys.otherRSAKey, audience: audience), "invalid_grant"),
                ("other account", try await keys.assertion(issuer: "someone@else.iam.gserviceaccount.com", audience: audience), "invalid_grant"),
                ("other audience", try await keys.assertion(audience: "https://example.com/token"), "invalid_grant"),
                ("too long", try await keys.assertion(audience: audience, lifetime: 7200), "invalid_grant"),
                ("expired", try await keys.assertion(audience: audience, issuedAt: Date().addingTimeInterval(-4000)), "invalid_grant"),
                ("no FCM scope", try await keys.assertion(audience: audience, scope: "https://www.googleapis.com/auth/cloud-platform"), "invalid_scope"),
                ("not a JWT", "abc", "invalid_grant"),
            ]
            for (name, assertion, error) in cases {
                let answer = try grant(curl, assertion)
                XCTAssertEqual(answer.status, 400, name)
                XCTAssertEqual(answer.object?["error"] as? String, error, name)
                XCTAssertNotNil(answer.object?["error_description"] as? String, name)
                XCTAssertNil(answer.object?["access_token"], name)
            }
            let signature = try grant(curl, try await keys.assertion(keyPath: keys.otherRSAKey, audience: audience))
            XCTAssertEqual(try canonical(signature.body), #"{"error":"invalid_grant","error_description":"Invalid JWT Signature."}"#)
            let wrongGrant = try curl.request("/token", body: "grant_type=password&assertion=x")
            XCTAssertEqual(wrongGrant.status, 400)
            XCTAssertEqual(wrongGrant.object?["error"] as? String, "unsupported_grant_type")
            XCTAssertTrue(sink.records().allSatisfy { $0.status == 400 && $0.error != nil })
        }
    }

    func testAMessageWithAnIssuedTokenIsSentAndRecorded() async throws {
        try await SinkOverTLS.run(keys) { _, curl in
            let bearer = try await accessToken(curl)
            let answer = try send(curl, bearer: bearer, message: message(token: fcmToken))
            XCTAssertEqual(answer.httpVersion, "2")
            XCTAssertEqual(answer.status, 200, answer.text)
            let name = try XCTUnwrap(answer.object?["name"] as? String)
            XCTAssertTrue(name.hasPrefix("projects/\(SinkOverTLS.project)/messages/"), name)
            XCTAssertEqual(answer.object?.count, 1)

            let (records, text) = try curl.records()
            let record = try XCTUnwrap(records.last)
            XCTAssertEqual(record.provider, "fcm")
            XCTAssertEqual(record.token, fcmToken)
            XCTAssertEqual(record.status, 200)
            XCTAssertEqual(record.rule, "ok")
            XCTAssertEqual(record.payload?["message"]?["data"], .object(["verb": .string("NotifyIncomingCall"), "Id": .string("a84b4c76")]))
            XCTAssertEqual(record.payload?["message"]?["android"]?["ttl"], .string("30s"))
            XCTAssertNil(record.headers["authorization"])
            XCTAssertFalse(text.contains(bearer), "the access token must never be recorded")
        }
    }

    func testAnUnknownOrMissingOrExpiredAccessTokenIsRefused() async throws {
        try await SinkOverTLS.run(keys, change: { $0.fcm.accessTokenLifetime = 1 }) { sink, curl in
            let shape = #"{"error":{"code":401,"message":"Request had invalid authentication credentials.","status":"UNAUTHENTICATED"}}"#
            let unknown = try send(curl, bearer: "ya29.made-up", message: message(token: fcmToken))
            XCTAssertEqual(unknown.status, 401)
            XCTAssertEqual(try canonical(unknown.body), shape)
            let missing = try send(curl, bearer: nil, message: message(token: fcmToken))
            XCTAssertEqual(missing.status, 401)
            XCTAssertEqual(try canonical(missing.body), shape)

            let bearer = try await accessToken(curl)
            XCTAssertEqual(try send(curl, bearer: bearer, message: message(token: fcmToken)).status, 200)
            try await Task.sleep(for: .milliseconds(1100))
            let expired = try send(curl, bearer: bearer, message: message(token: fcmToken))
            XCTAssertEqual(expired.status, 401)
            XCTAssertEqual(sink.records().filter { $0.provider == "fcm" }.map(\.reason), ["UNAUTHENTICATED", "UNAUTHENTICATED", nil, "UNAUTHENTICATED"])
        }
    }

    func testAnotherProjectIsASenderIDMismatch() async throws {
        try await SinkOverTLS.run(keys) { _, curl in
            let answer = try send(curl, bearer: try await accessToken(curl), project: "someone-else", message: message(token: fcmToken))
            XCTAssertEqual(answer.status, 403)
            XCTAssertEqual(try canonical(answer.body), #"{"error":{"code":403,"details":[{"@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError","errorCode":"SENDER_ID_MISMATCH"}],"message":"SenderId mismatch","status":"PERMISSION_DENIED"}}"#)
        }
    }

    func testMessageChecks() async throws {
        try await SinkOverTLS.run(keys) { sink, curl in
            let bearer = try await accessToken(curl)
            let cases: [(String, String, String)] = [
                ("number in data", #"{"token":"\#(fcmToken)","data":{"Badge":1}}"#, "message.data[0].value"),
                ("bool in data", #"{"token":"\#(fcmToken)","data":{"Id":"x","Video":true}}"#, "message.data[1].value"),
                ("no token", #"{"data":{"Id":"x"}}"#, "message.token"),
                ("priority", #"{"token":"\#(fcmToken)","android":{"priority":"urgent"}}"#, "message.android.priority"),
                ("ttl", #"{"token":"\#(fcmToken)","android":{"ttl":"30"}}"#, "message.android.ttl"),
            ]
            for (name, message, field) in cases {
                let answer = try send(curl, bearer: bearer, message: message)
                XCTAssertEqual(answer.status, 400, name)
                let error = try XCTUnwrap(answer.object?["error"] as? [String: Any], name)
                XCTAssertEqual(error["status"] as? String, "INVALID_ARGUMENT", name)
                XCTAssertEqual(error["code"] as? Int, 400, name)
                let details = try XCTUnwrap(error["details"] as? [[String: Any]], name)
                let violations = details.compactMap { $0["fieldViolations"] as? [[String: String]] }.flatMap { $0 }
                XCTAssertEqual(violations.first?["field"], field, name)
            }
            let upper = try send(curl, bearer: bearer, message: #"{"token":"\#(fcmToken)","android":{"priority":"HIGH","ttl":"0.5s"}}"#)
            XCTAssertEqual(upper.status, 200, upper.text)
            let refused = sink.records().filter { $0.status == 400 }
            XCTAssertEqual(refused.count, cases.count)
            XCTAssertEqual(refused.first?.error, "message.data.Badge is not a string")
        }
    }

    func testTokenRulesAnswerInGooglesShapes() async throws {
        let fcmError = "type.googleapis.com/google.firebase.fcm.v1.FcmError"
        try await SinkOverTLS.run(keys, change: { settings in
            settings.rules = ["gone-token": .gone, "bad-token": .bad, "busy-token": .fail(status: 429),
                              "down-token": .fail(status: 503), "broken-token": .fail(status: 500)]
            settings.retryAfter = 30
        }) { sink, curl in
            let bearer = try await accessToken(curl)
            let expected: [(String, Int, String, String?)] = [
                ("gone-token", 404, #"{"error":{"code":404,"details":[{"@type":"\#(fcmError)","errorCode":"UNREGISTERED"}],"message":"Requested entity was not found.","status":"NOT_FOUND"}}"#, nil),
                ("bad-token", 400, #"{"error":{"code":400,"details":[{"@type":"\#(fcmError)","errorCode":"INVALID_ARGUMENT"}],"message":"The registration token is not a valid FCM registration token","status":"INVALID_ARGUMENT"}}"#, nil),
                ("busy-token", 429, #"{"error":{"code":429,"details":[{"@type":"\#(fcmError)","errorCode":"QUOTA_EXCEEDED"}],"message":"Quota exceeded for quota metric 'Send requests' of service 'fcm.googleapis.com'.","status":"RESOURCE_EXHAUSTED"}}"#, "30"),
                ("down-token", 503, #"{"error":{"code":503,"details":[{"@type":"\#(fcmError)","errorCode":"UNAVAILABLE"}],"message":"The service is currently unavailable.","status":"UNAVAILABLE"}}"#, "30"),
                ("broken-token", 500, #"{"error":{"code":500,"details":[{"@type":"\#(fcmError)","errorCode":"INTERNAL"}],"message":"Internal error encountered.","status":"INTERNAL"}}"#, nil),
            ]
            for (device, status, body, retryAfter) in expected {
                let answer = try send(curl, bearer: bearer, message: message(token: device))
                XCTAssertEqual(answer.status, status, device)
                XCTAssertEqual(try canonical(answer.body), body, device)
                XCTAssertEqual(answer.headers["retry-after"], retryAfter, device)
            }
            let records = sink.records().filter { $0.provider == "fcm" }
            XCTAssertEqual(records.map(\.token), expected.map(\.0))
            XCTAssertEqual(records.map(\.reason), ["UNREGISTERED", "INVALID_ARGUMENT", "QUOTA_EXCEEDED", "UNAVAILABLE", "INTERNAL"])
        }
    }

    func testWithoutAServiceAccountNoTokenIsIssued() async throws {
        try await SinkOverTLS.run(keys, change: { $0.fcm.keyPEM = nil }) { _, curl in
            let answer = try grant(curl, try await keys.assertion(audience: "\(curl.baseURL)/token"))
            XCTAssertEqual(answer.status, 400)
            XCTAssertEqual(answer.object?["error"] as? String, "invalid_grant")
        }
    }
}
