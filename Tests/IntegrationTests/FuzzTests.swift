import Foundation
import SIPAttackSupport
import SIPFuzz
import XCTest

/// A short fuzzing run (docs/security.md) over UDP, TCP and TLS against a real
/// server: it must neither crash nor stall, and its memory must not run away.
final class FuzzTests: AttackToolTestCase {
    func testShortFuzzRunOverUDPTCPAndTLS() async throws {
        let target = try await startAttackTarget()
        let output = target.server.directory.appendingPathComponent("fuzz").path
        let configuration = try FuzzConfiguration(
            target: target.endpoint, tlsTarget: target.tlsEndpoint, transports: [.udp, .tcp, .tls],
            duration: 45, rate: 100, seed: 20_260_101, pid: target.server.pid, outputDirectory: output)
        let summary = try FuzzCampaign(configuration).run()
        print(summary.report)
        let context = "\(summary.report)\n--- server log ---\n\(logTail(target.server))"

        XCTAssertEqual(summary.crashes, 0, context)
        XCTAssertEqual(summary.stalls, 0, context)
        XCTAssertTrue(target.server.isRunning, context)
        for transport in FuzzTransport.allCases {
            XCTAssertGreaterThan(summary.transports[transport]?.inputs ?? 0, 100, "\(transport) carried inputs\n\(context)")
        }
        XCTAssertGreaterThan(summary.liveness.probesAnswered, 150, context)
        // All but the probes still in flight when the run stopped.
        XCTAssertGreaterThanOrEqual(summary.liveness.probesAnswered, summary.liveness.probesSent - 2, context)
        let growth = try XCTUnwrap(summary.memory.growth, context)
        XCTAssertLessThan(growth, 64 << 20, "resident memory grew by \(ByteCount.text(growth))\n\(context)")
        XCTAssertTrue(summary.saved.isEmpty, context)
    }
}
