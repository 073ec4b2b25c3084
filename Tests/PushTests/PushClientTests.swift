import Foundation
import Logging
import Model
import Push
import PushSink
import TestSupport
import XCTest

/// PushClient against a real PushSink over loopback HTTP.
final class PushClientTests: XCTestCase {
    func testIncomingCallReachesTheGatewayWithEveryField() async throws {
        try await PushFixtures.withSinkAndClient { sink, client, _ in
            let notification = PushFixtures.incomingCall()
            let result = await PushFixtures.send(notification, with: client)
            XCTAssertEqual(result, PushResult(kind: .delivered, httpStatus: 200, detail: #"{"status":"ok"}"#))
            let records = sink.records()
            XCTAssertEqual(records.count, 1)
            XCTAssertEqual(records.first?.path, "/pnm2/send")
            XCTAssertEqual(records.first?.status, 200)
            XCTAssertNil(records.first?.error)
            XCTAssertEqual(records.first?.body, PushFixtures.incomingCallFields)
        }
    }

    func testGoneTokenIsTokenGone() async throws {
        let settings = PushSinkSettings(port: 0, rules: ["gone-token": .gone])
        try await PushFixtures.withSinkAndClient(sink: settings) { sink, client, _ in
            let result = await PushFixtures.send(PushFixtures.incomingCall(token: "gone-token"), with: client)
            XCTAssertEqual(result, PushResult(kind: .tokenGone, httpStatus: 404, detail: "Device token is no longer registered"))
            // Other tokens still get through.
            let other = await PushFixtures.send(PushFixtures.incomingCall(), with: client)
            XCTAssertEqual(other.kind, .delivered)
            XCTAssertEqual(sink.records().map(\.status), [404, 200])
        }
    }

    func testServerErrorsAreRetryableAndClientErrorsFailed() async throws {
        try await PushFixtures.withSinkAndClient { sink, client, _ in
            sink.setRule(.fail(status: 500), forToken: "t500")
            sink.setRule(.fail(status: 429), forToken: "t429")
            sink.setRule(.fail(status: 400), forToken: "t400")
            let r500 = await PushFixtures.send(PushFixtures.incomingCall(token: "t500"), with: client)
            XCTAssertEqual(r500, PushResult(kind: .retryable, httpStatus: 500, detail: "push sink rule fail:500"))
            let r429 = await PushFixtures.send(PushFixtures.incomingCall(token: "t429"), with: client)
            XCTAssertEqual(r429.kind, .retryable)
            XCTAssertEqual(r429.httpStatus, 429)
            let r400 = await PushFixtures.send(PushFixtures.incomingCall(token: "t400"), with: client)
            XCTAssertEqual(r400, PushResult(kind: .failed, httpStatus: 400, detail: "push sink rule fail:400"))
        }
    }

    func testDefaultRuleChangesWhileRunning() async throws {
        try await PushFixtures.withSinkAndClient { sink, client, _ in
            let before = await PushFixtures.send(PushFixtures.incomingCall(), with: client)
            sink.setDefaultRule(.fail(status: 503))
            let after = await PushFixtures.send(PushFixtures.incomingCall(), with: client)
            XCTAssertEqual([before.kind, after.kind], [.delivered, .retryable])
        }
    }

    func testSlowGatewayIsATimeoutAndRetryable() async throws {
        let settings = PushSinkSettings(port: 0, rules: ["slow-token": .slow(milliseconds: 1500)])
        try await PushFixtures.withSinkAndClient(sink: settings, timeout: 0.3) { sink, client, _ in
            let result = await PushFixtures.send(PushFixtures.incomingCall(token: "slow-token"), with: client)
            XCTAssertEqual(result.kind, .retryable)
            XCTAssertNil(result.httpStatus)
            XCTAssertTrue(result.detail?.hasPrefix("timeout: ") == true, "\(String(describing: result.detail))")
            XCTAssertEqual(sink.records().count, 1)
        }
    }

    func testClosedPortIsRetryable() async throws {
        // A port that was just listened on and is now closed.
        let (_, sinkService, port) = try await PushFixtures.startSink()
        try await sinkService.stop()

        let client = PushFixtures.client(gatewayURL: "http://127.0.0.1:\(port)/pnm2/send", logger: PushFixtures.logger)
        let service = RunningService.start(client, logger: PushFixtures.logger)
        let result = await PushFixtures.send(PushFixtures.incomingCall(), with: client)
        try await service.stop()
        XCTAssertEqual(result.kind, .retryable)
        XCTAssertNil(result.httpStatus)
        XCTAssertNotNil(result.detail)
    }

    func testMalformedGatewayURLFailsAndIsLoggedAsAWarning() async throws {
        let log = LogRecorder()
        let client = PushFixtures.client(gatewayURL: "nope://gateway", logger: log.logger)
        let service = RunningService.start(client, logger: PushFixtures.logger)
        let result = await PushFixtures.send(PushFixtures.incomingCall(), with: client)
        try await service.stop()
        XCTAssertEqual(result.kind, .failed)
        XCTAssertTrue(result.detail?.lowercased().contains("protocol") == true, result.detail ?? "no detail")
        // Every push failing for good must show in an operator's log, without the token in full.
        let warning = log.recordedWithMetadata.first { $0.hasPrefix("warning: push failed") }
        XCTAssertNotNil(warning, "\(log.recordedWithMetadata)")
        XCTAssertTrue(warning?.contains("token=\(PushFixtures.apnsToken.prefix(8))…") == true, warning ?? "")
        XCTAssertFalse(log.recordedWithMetadata.joined().contains(PushFixtures.apnsToken), "the token is never logged in full")
    }

    func testManyConcurrentSendsEachCompleteOnce() async throws {
        let count = 200
        let tally = ResultTally()
        try await PushFixtures.withSinkAndClient { sink, client, _ in
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<count {
                    group.addTask {
                        let id = "call-\(index)"
                        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                            client.send(PushFixtures.incomingCall(token: "token-\(index % 7)", id: id)) { result in
                                tally.add(result, for: id)
                                continuation.resume()
                            }
                        }
                    }
                }
            }
            let ids = Set(sink.records().compactMap { $0.body["Id"] })
            XCTAssertEqual(ids, Set((0..<count).map { "call-\($0)" }))
        }
        // The client has stopped: no completion can still come.
        let results = tally.byID
        XCTAssertEqual(results.count, count)
        XCTAssertTrue(results.values.allSatisfy { $0.count == 1 })
        XCTAssertTrue(results.values.allSatisfy { $0.first?.kind == .delivered })
    }

    func testSendBeforeRunWaitsForIt() async throws {
        let (_, sinkService, port) = try await PushFixtures.startSink()
        let client = PushFixtures.client(gatewayURL: "http://127.0.0.1:\(port)/pnm2/send", logger: PushFixtures.logger)
        let tally = ResultTally()
        let done = AsyncStream<Void>.makeStream()
        client.send(PushFixtures.incomingCall(id: "early")) { result in
            tally.add(result, for: "early")
            done.continuation.yield()
        }
        XCTAssertTrue(tally.byID.isEmpty)
        let service = RunningService.start(client, logger: PushFixtures.logger)
        for await _ in done.stream { break }
        try await service.stop()
        try await sinkService.stop()
        XCTAssertEqual(tally.single("early")?.kind, .delivered)
    }

    func testShutdownLetsPushesInFlightFinish() async throws {
        let settings = PushSinkSettings(port: 0, defaultRule: .slow(milliseconds: 300))
        let tally = ResultTally()
        try await PushFixtures.withSinkAndClient(sink: settings) { _, client, _ in
            client.send(PushFixtures.incomingCall(id: "in-flight")) { tally.add($0, for: "in-flight") }
        }
        // withSinkAndClient stopped the client right after the send.
        XCTAssertEqual(tally.single("in-flight")?.kind, .delivered)
    }

    func testSendAfterShutdownFailsAtOnce() async throws {
        let client = PushFixtures.client(gatewayURL: "http://127.0.0.1:9/pnm2/send", logger: PushFixtures.logger)
        let service = RunningService.start(client, logger: PushFixtures.logger)
        try await service.stop()
        let tally = ResultTally()
        client.send(PushFixtures.incomingCall(id: "late")) { tally.add($0, for: "late") }
        // Completed before send() returned.
        XCTAssertEqual(tally.single("late"), PushResult(kind: .failed, detail: "push client stopped"))
    }

    func testRunTwiceIsRefused() async throws {
        let client = PushFixtures.client(gatewayURL: AcrobitsSettings().gatewayURL)
        let service = RunningService.start(client, logger: PushFixtures.logger)
        try await service.stop()
        do {
            try await client.run()
            XCTFail("a second run() must throw")
        } catch let error as PushClientError {
            XCTAssertEqual(error.description, "push client already ran")
        }
    }
}
