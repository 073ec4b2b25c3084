import Foundation
import XCTest

/// `sip-flood` run for real, briefly and slowly: its summary parses and the
/// legitimate client's REGISTERs all succeed.
final class FloodToolTests: AttackToolTestCase {
    func testShortLowRateFloodReportsAndTheProbeRegisters() async throws {
        let server = try await startServer(config: "[push]\nenabled = false")
        let pid = try XCTUnwrap(server.pid)
        let result = try SipwakeProcess.run(try executable("sip-flood"), [
            "--target", "127.0.0.1:\(server.port)", "--user", "alice", "--password", "alice-secret",
            "--rate", "50", "--duration", "2", "--baseline", "1", "--linger-max", "1", "--pid", "\(pid)",
        ])
        let context = "\(result.stdout)\n\(result.stderr)"
        XCTAssertEqual(result.status, 0, context)
        let rows = Self.tableRows(result.stdout)

        let sent = try XCTUnwrap(rows["INVITEs sent"].flatMap { Self.leadingInteger($0[0]) }, context)
        XCTAssertGreaterThanOrEqual(sent, 90, context)
        XCTAssertLessThanOrEqual(sent, 100, context)
        // Whatever the server does with the INVITEs, the ratio is what was counted.
        let answers = try XCTUnwrap(rows["answers received"].flatMap { Self.leadingInteger($0[0]) }, context)
        let ratio = String(format: "%.2f answers per INVITE", Double(answers) / Double(sent))
        XCTAssertTrue(rows["amplification"]?[0].hasPrefix(ratio) == true, "\(ratio)\n\(context)")
        XCTAssertTrue(rows["target RSS"]?[0].hasPrefix("before ") == true, context)

        for phase in ["baseline, before the flood", "during the flood"] {
            let row = try XCTUnwrap(rows[phase], "row \(phase)\n\(context)")
            // phase length | exchanges | 200 OK | failed | timeouts | credentials | whole
            let exchanges = try XCTUnwrap(Int(row[1]), context)
            XCTAssertGreaterThanOrEqual(exchanges, 5, "\(phase)\n\(context)")
            XCTAssertEqual(Int(row[2]), exchanges, "every REGISTER got its 200 OK (\(phase))\n\(context)")
            XCTAssertEqual(Int(row[3]), 0, context)
            XCTAssertEqual(Int(row[4]), 0, context)
            XCTAssertEqual(row[5].split(separator: "/").count, 4, context)
        }
        let registered = try server.registrations(user: "alice")
        XCTAssertTrue(registered.isEmpty, "the probe unregisters at the end: \(registered)")
    }

    /// Markdown table rows by their first cell: the other cells, trimmed.
    static func tableRows(_ text: String) -> [String: [String]] {
        var rows: [String: [String]] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("| ") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard let first = cells.first else { continue }
            rows[first] = Array(cells.dropFirst())
        }
        return rows
    }

    static func leadingInteger(_ text: String) -> Int? {
        Int(text.prefix { $0.isNumber })
    }
}
