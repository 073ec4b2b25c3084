import Foundation
import SIPAttackSupport
import SIPFuzz
import XCTest

/// Every input in FuzzRegressions/ once crashed or stalled sipwake. Each is
/// replayed alone over its transport; the server must go on serving.
final class FuzzRegressionTests: AttackToolTestCase {
    static var corpus: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("FuzzRegressions")
    }

    func testEveryKnownCrashingInputLeavesTheServerServing() async throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path).filter { $0.hasSuffix(".sip") }.sorted()
        XCTAssertGreaterThanOrEqual(names.count, 4, "the corpus is in \(Self.corpus.path)")
        let target = try await startAttackTarget()
        let replayer = try FuzzReplayer(target: target.endpoint, tlsTarget: target.tlsEndpoint, pid: target.server.pid)
        for name in names {
            let file = try ReplayFile(path: Self.corpus.appendingPathComponent(name).path)
            let report = try replayer.replay([file])
            let context = "\(name):\n\(report.report)\n--- server log ---\n\(logTail(target.server))"
            XCTAssertEqual(report.entries.count, 1, context)
            XCTAssertEqual(report.entries.first?.sendFailed, false, "the input was delivered\n\(context)")
            XCTAssertTrue(target.server.isRunning, "the server died\n\(context)")
            XCTAssertNotNil(report.probeLatency, "the server stopped answering\n\(context)")
            XCTAssertEqual(report.processAlive, true, context)
        }
    }
}
