import Foundation
import Model
import Push
import XCTest

/// One test per row of the classification table in docs/push.md.
final class AcrobitsAnswerTests: XCTestCase {
    private func classify(_ status: Int, _ body: String = "") -> PushResult {
        AcrobitsAnswer.classify(status: status, body: Data(body.utf8))
    }

    func test200IsDelivered() {
        XCTAssertEqual(classify(200, #"{"status":"ok"}"#), PushResult(kind: .delivered, httpStatus: 200, detail: #"{"status":"ok"}"#))
        XCTAssertEqual(classify(204).kind, .delivered)
        XCTAssertNil(classify(204).detail)
    }

    func test2xxSayingNotRegisteredIsTokenGone() {
        XCTAssertEqual(classify(200, #"{"code":"NotRegistered"}"#).kind, .tokenGone)
        XCTAssertEqual(classify(200, #"{"status":"error","reason":"Unregistered"}"#).kind, .tokenGone)
        XCTAssertEqual(classify(200, #"{"error":"InvalidRegistration"}"#).kind, .tokenGone)
        XCTAssertEqual(classify(202, #"{"result":{"reason":"BadDeviceToken"}}"#).kind, .tokenGone)
        XCTAssertEqual(classify(200, #"{"error":{"code":410,"message":"gone"}}"#), PushResult(kind: .tokenGone, httpStatus: 200, detail: "gone"))
        XCTAssertEqual(classify(200, #"{"status":"not registered"}"#).kind, .tokenGone)
        XCTAssertEqual(classify(200, #"{"code":"invalid token"}"#).kind, .tokenGone)
        XCTAssertEqual(classify(200, #"{"code":404}"#).kind, .tokenGone)
    }

    func testVerdictsElsewhereOrDeeperDoNotCount() {
        XCTAssertEqual(classify(200, #"{"message":"NotRegistered"}"#).kind, .delivered)
        XCTAssertEqual(classify(200, #"{"a":{"b":{"code":"NotRegistered"}}}"#).kind, .delivered)
        XCTAssertEqual(classify(200, #"{"status":200,"code":"ok"}"#).kind, .delivered)
    }

    func test404And410AreTokenGone() {
        XCTAssertEqual(classify(404).kind, .tokenGone)
        XCTAssertEqual(classify(410, #"{"message":"Device token is no longer registered"}"#),
                       PushResult(kind: .tokenGone, httpStatus: 410, detail: "Device token is no longer registered"))
    }

    func test4xxSayingNotRegisteredIsTokenGone() {
        XCTAssertEqual(classify(400, #"{"status":"error","code":"NotRegistered"}"#).kind, .tokenGone)
    }

    func test5xxAnd429AreRetryable() {
        XCTAssertEqual(classify(500).kind, .retryable)
        XCTAssertEqual(classify(503, #"{"message":"maintenance"}"#), PushResult(kind: .retryable, httpStatus: 503, detail: "maintenance"))
        XCTAssertEqual(classify(429).kind, .retryable)
        XCTAssertEqual(classify(502, #"{"code":"NotRegistered"}"#).kind, .retryable)
    }

    func testOther4xxAreFailed() {
        XCTAssertEqual(classify(403, "forbidden"), PushResult(kind: .failed, httpStatus: 403, detail: "forbidden"))
        XCTAssertEqual(classify(400, #"{"code":"BadRequest"}"#).kind, .failed)
        XCTAssertEqual(classify(401).kind, .failed)
    }

    func testOtherStatusesAreFailed() {
        XCTAssertEqual(classify(301).kind, .failed)
        XCTAssertEqual(classify(101).kind, .failed)
    }

    func testDetailIsTruncatedTo200Characters() {
        let long = String(repeating: "x", count: 500)
        XCTAssertEqual(classify(500, long).detail, String(repeating: "x", count: 200))
        XCTAssertEqual(classify(500, #"{"message":"\#(long)"}"#).detail?.count, 200)
    }
}
