import Foundation
import Logging
import PushSink
import XCTest

/// The push sink over real loopback HTTP.
final class PushSinkTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("push-sink-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func withSink(_ settings: PushSinkSettings = PushSinkSettings(port: 0),
                          _ body: (PushSink, Int) async throws -> Void) async throws {
        let (sink, service, port) = try await PushFixtures.startSink(settings)
        do {
            try await body(sink, port)
        } catch {
            try? await service.stop()
            throw error
        }
        try await service.stop()
    }

    func testBadJSONIsRefusedAndRecorded() async throws {
        try await withSink { sink, port in
            let answer = try await SinkHTTP.request("POST", port: port, path: "/pnm2/send", body: "{not json")
            XCTAssertEqual(answer.status, 400)
            let object = try XCTUnwrap(SinkHTTP.object(answer.body))
            XCTAssertEqual(object["status"] as? String, "error")
            XCTAssertEqual(object["code"] as? String, "BadRequest")
            let records = sink.records()
            XCTAssertEqual(records.count, 1)
            XCTAssertEqual(records.first?.status, 400)
            XCTAssertEqual(records.first?.error, "body is not a JSON object")
            XCTAssertEqual(records.first?.body, [:])
        }
    }

    func testJSONArrayIsRefused() async throws {
        try await withSink { sink, port in
            let answer = try await SinkHTTP.request("POST", port: port, path: "/pnm2/send", body: "[1,2]")
            XCTAssertEqual(answer.status, 400)
            XCTAssertEqual(sink.records().map(\.status), [400])
        }
    }

    func testValuesAreRecordedAsStrings() async throws {
        try await withSink { sink, port in
            let body = #"{"verb":"NotifyIncomingCall","Badge":1,"Timestamp":1700000000,"Flag":true,"Nothing":null}"#
            let answer = try await SinkHTTP.request("POST", port: port, path: "/pnm2/send", body: body)
            XCTAssertEqual(answer.status, 200)
            XCTAssertEqual(SinkHTTP.object(answer.body)?["status"] as? String, "ok")
            XCTAssertEqual(sink.records().first?.body, [
                "verb": "NotifyIncomingCall", "Badge": "1", "Timestamp": "1700000000", "Flag": "true", "Nothing": "null",
            ])
        }
    }

    func testAnyPathUnderPnm2IsTakenAndOthersAreNot() async throws {
        try await withSink(PushSinkSettings(port: 0, path: "/custom/send")) { sink, port in
            let custom = try await SinkHTTP.request("POST", port: port, path: "/custom/send", body: "{}")
            let pnm2 = try await SinkHTTP.request("POST", port: port, path: "/pnm2/other", body: "{}")
            let elsewhere = try await SinkHTTP.request("POST", port: port, path: "/elsewhere", body: "{}")
            XCTAssertEqual([custom.status, pnm2.status, elsewhere.status], [200, 200, 404])
            XCTAssertEqual(sink.records().map(\.path), ["/custom/send", "/pnm2/other"])
        }
    }

    func testOutputFileGetsOneJSONLinePerRequest() async throws {
        let output = directory.appendingPathComponent("pushes.jsonl").path
        var records: [PushSinkRecord] = []
        try await withSink(PushSinkSettings(port: 0, output: output, rules: ["gone-token": .gone])) { sink, port in
            _ = try await SinkHTTP.request("POST", port: port, path: "/pnm2/send", body: #"{"DeviceToken":"a","Id":"1"}"#)
            _ = try await SinkHTTP.request("POST", port: port, path: "/pnm2/send", body: #"{"DeviceToken":"gone-token"}"#)
            _ = try await SinkHTTP.request("POST", port: port, path: "/pnm2/send", body: "oops")
            records = sink.records()
        }
        let text = try String(contentsOfFile: output, encoding: .utf8)
        XCTAssertTrue(text.hasSuffix("\n"))
        let lines = text.split(separator: "\n")
        XCTAssertEqual(lines.count, 3)
        let decoded = try lines.map { try PushSinkRecord.jsonDecoder().decode(PushSinkRecord.self, from: Data($0.utf8)) }
        XCTAssertEqual(decoded.map(\.body), [["DeviceToken": "a", "Id": "1"], ["DeviceToken": "gone-token"], [:]])
        XCTAssertEqual(decoded.map(\.status), [200, 404, 400])
        XCTAssertEqual(decoded.map(\.error), [nil, nil, "body is not a JSON object"])
        XCTAssertEqual(decoded.map(\.path), records.map(\.path))
        for (line, record) in zip(decoded, records) {
            XCTAssertEqual(line.receivedAt.timeIntervalSince1970, record.receivedAt.timeIntervalSince1970, accuracy: 0.001)
        }
        XCTAssertTrue(lines[2].contains(#""error":"body is not a JSON object""#))
    }

    func testOutputFileThatCannotBeOpenedStopsTheSink() async throws {
        let output = directory.appendingPathComponent("missing/dir/pushes.jsonl").path
        let sink = PushSink(settings: PushSinkSettings(port: 0, output: output), logger: PushFixtures.logger)
        do {
            try await sink.run()
            XCTFail("run() must throw")
        } catch let error as PushSinkError {
            XCTAssertEqual(error.description, "cannot create output file \(output)")
        }
        let port = await sink.boundPort
        XCTAssertNil(port)
    }

    func testPostRulesChangesAnswers() async throws {
        try await withSink { sink, port in
            let set = try await SinkHTTP.request("POST", port: port, path: "/rules", body: #"{"token":"t1","rule":"gone"}"#)
            XCTAssertEqual(set.status, 200)
            let gone = try await SinkHTTP.request("POST", port: port, path: "/pnm2/send", body: #"{"DeviceToken":"t1"}"#)
            XCTAssertEqual(gone.status, 404)
            XCTAssertEqual(SinkHTTP.object(gone.body)?["code"] as? String, "NotRegistered")

            let fail = try await SinkHTTP.request("POST", port: port, path: "/rules", body: #"{"rule":"fail:503"}"#)
            XCTAssertEqual(fail.status, 200)
            let other = try await SinkHTTP.request("POST", port: port, path: "/pnm2/send", body: #"{"DeviceToken":"t2"}"#)
            XCTAssertEqual(other.status, 503)

            let rules = try await SinkHTTP.request("GET", port: port, path: "/rules")
            let object = try XCTUnwrap(SinkHTTP.object(rules.body))
            XCTAssertEqual(object["default"] as? String, "fail:503")
            XCTAssertEqual(object["tokens"] as? [String: String], ["t1": "gone"])

            let bad = try await SinkHTTP.request("POST", port: port, path: "/rules", body: #"{"token":"t1","rule":"sometimes"}"#)
            XCTAssertEqual(bad.status, 400)
            let missing = try await SinkHTTP.request("POST", port: port, path: "/rules", body: #"{"token":"t1"}"#)
            XCTAssertEqual(missing.status, 400)
            // null or "" is no token: refused, not a rule for the token "null".
            for token in ["null", #""""#, "5"] {
                let refused = try await SinkHTTP.request("POST", port: port, path: "/rules",
                                                         body: #"{"token":\#(token),"rule":"gone"}"#)
                XCTAssertEqual(refused.status, 400, token)
            }
            let after = try await SinkHTTP.request("GET", port: port, path: "/rules")
            XCTAssertEqual(SinkHTTP.object(after.body)?["tokens"] as? [String: String], ["t1": "gone"])
            XCTAssertEqual(sink.records().map(\.status), [404, 503])
        }
    }

    func testTheBadRuleAnswersTheGatewayWith400AndRecordsProviderAndToken() async throws {
        try await withSink(PushSinkSettings(port: 0, rules: ["bad-token": .bad])) { sink, port in
            let answer = try await SinkHTTP.request("POST", port: port, path: "/pnm2/send", body: #"{"DeviceToken":"bad-token"}"#)
            XCTAssertEqual(answer.status, 400)
            XCTAssertEqual(SinkHTTP.object(answer.body)?["code"] as? String, "InvalidToken")
            let record = try XCTUnwrap(sink.records().first)
            XCTAssertEqual(record.provider, "acrobits")
            XCTAssertEqual(record.token, "bad-token")
            XCTAssertNil(record.payload)
            XCTAssertNil(record.reason)
        }
    }

    func testABodyOverTheLimitIsRecordedAs413() async throws {
        try await withSink { sink, port in
            let big = #"{"DeviceToken":""# + String(repeating: "x", count: 1_100_000) + #""}"#
            let answer = try await SinkHTTP.request("POST", port: port, path: "/pnm2/send", body: big)
            XCTAssertEqual(answer.status, 413)
            XCTAssertEqual(sink.records().map(\.status), [413])
            XCTAssertNotNil(sink.records().first?.error)
        }
    }

    func testShutdownDoesNotWaitForASlowAnswer() async throws {
        let (sink, service, port) = try await PushFixtures.startSink(PushSinkSettings(port: 0, defaultRule: .slow(milliseconds: 60_000)))
        let answer = Task { try await SinkHTTP.request("POST", port: port, path: "/pnm2/send", body: #"{"DeviceToken":"t"}"#) }
        while sink.records().isEmpty { try await Task.sleep(for: .milliseconds(20)) }
        let started = ContinuousClock.now
        try await service.stop()
        // A generous bound: the point is "not the rule's 60 s".
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(20))
        let status = try await answer.value.status
        XCTAssertEqual(status, 200, "the slow answer is sent at once")
    }

    func testGetRecordsReturnsWhatWasReceivedAndDeleteClearsIt() async throws {
        try await withSink { sink, port in
            for index in 0..<3 {
                _ = try await SinkHTTP.request("POST", port: port, path: "/pnm2/send", body: #"{"Id":"\#(index)"}"#)
            }
            let answer = try await SinkHTTP.request("GET", port: port, path: "/records")
            XCTAssertEqual(answer.status, 200)
            let records = try PushSinkRecord.jsonDecoder().decode([PushSinkRecord].self, from: answer.body)
            XCTAssertEqual(records.map { $0.body["Id"] }, ["0", "1", "2"])
            XCTAssertEqual(records.map(\.path), sink.records().map(\.path))

            let cleared = try await SinkHTTP.request("DELETE", port: port, path: "/records")
            XCTAssertEqual(cleared.status, 200)
            XCTAssertEqual(sink.records(), [])
        }
    }

    func testMethodAndHeadersAreRecordedAndWrittenInTheLine() async throws {
        let output = directory.appendingPathComponent("pushes.jsonl").path
        try await withSink(PushSinkSettings(port: 0, output: output)) { sink, port in
            let put = try await SinkHTTP.request("PUT", port: port, path: "/pnm2/send", body: #"{"DeviceToken":"a"}"#)
            XCTAssertEqual(put.status, 200)
            let record = try XCTUnwrap(sink.records().first)
            XCTAssertEqual(record.method, "PUT")
            XCTAssertEqual(record.headers["content-type"], "application/json")
            XCTAssertEqual(record.headers["content-length"], "19")
        }
        let line = try XCTUnwrap(try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n").first)
        let decoded = try PushSinkRecord.jsonDecoder().decode(PushSinkRecord.self, from: Data(line.utf8))
        XCTAssertEqual(decoded.method, "PUT")
        XCTAssertEqual(decoded.headers["content-type"], "application/json")
    }

    func testALineWithoutMethodOrHeadersStillReads() throws {
        let line = #"{"body":{"Id":"1"},"path":"/pnm2/send","receivedAt":"2026-11-23T11:24:48.182Z","status":200}"#
        let record = try PushSinkRecord.jsonDecoder().decode(PushSinkRecord.self, from: Data(line.utf8))
        XCTAssertEqual(record.method, "POST")
        XCTAssertEqual(record.headers, [:])
        XCTAssertEqual(record.body, ["Id": "1"])
    }

    func testRuleText() {
        XCTAssertEqual(PushSinkRule("ok"), .ok)
        XCTAssertEqual(PushSinkRule("gone"), .gone)
        XCTAssertEqual(PushSinkRule("bad"), .bad)
        XCTAssertEqual(PushSinkRule("fail"), .fail(status: 500))
        XCTAssertEqual(PushSinkRule("fail:404"), .fail(status: 404))
        XCTAssertEqual(PushSinkRule("slow:4000"), .slow(milliseconds: 4000))
        for bad in ["", "OK", "fail:", "fail:99", "fail:600", "fail:abc", "slow", "slow:-1", "slow:99999999", "gone:1", "bad:1", "BAD"] {
            XCTAssertNil(PushSinkRule(bad), bad)
        }
        for rule in [PushSinkRule.ok, .gone, .bad, .fail(status: 418), .slow(milliseconds: 7)] {
            XCTAssertEqual(PushSinkRule(rule.description), rule)
        }
    }
}
