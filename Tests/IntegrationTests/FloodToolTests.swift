import Foundation
import XCTest

/// `sip-flood` run for real, briefly and slowly: its summary parses and the
/// legitimate client's REGISTERs all succeed. And both attack tools' exit
/// status when they cannot do their run.
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
        // Unauthenticated INVITEs get one stateless 407 each at most (the
        // first ones of a source, then a few a second): never more answers
        // than INVITEs, and never anything but 407.
        let answersRow = try XCTUnwrap(rows["answers received"]?[0], context)
        let answers = try XCTUnwrap(Self.leadingInteger(answersRow), context)
        XCTAssertGreaterThan(answers, 0, context)
        XCTAssertLessThanOrEqual(answers, sent, context)
        XCTAssertTrue(answersRow.hasPrefix("\(answers) (407 ×\(answers)), "), context)
        let amplification = try XCTUnwrap(rows["amplification"]?[0], context)
        let perInvite = try XCTUnwrap(Double(amplification.prefix { $0 != " " }), context)
        XCTAssertTrue(amplification.hasPrefix(String(format: "%.3f answers per INVITE; ", perInvite)), context)
        XCTAssertGreaterThan(perInvite, 0, context)
        XCTAssertLessThanOrEqual(perInvite, 1, context)
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

    /// A tool that cannot do its run exits 2 with one line on stderr that says
    /// why; 1 is left to a server that crashed or stalled under sip-fuzz.
    func testUsageAndSetupErrorsExitTwoWithOneLine() throws {
        let silent = try TestPorts.free()
        let fuzz: [([String], String)] = [
            (["--bogus"], "Unknown option '--bogus'"),
            (["--rate", "fast"], "--rate"),
            (["--transports", "udp,sctp"], "--transports takes a comma-separated list"),
            (["--keep=-1"], "--keep must be 0 or more, not -1"),
            (["--target", "10.0.0.1:5060"], "'10.0.0.1' is not a loopback address"),
            (["--from", "192.168.1.2"], "'192.168.1.2' is not a loopback address"),
            (["--rate", "0"], "the rate must be above 0"),
            (["--transports", "tls"], "the tls transport needs --tls-port"),
            (["--replay", "nothing.txt"], "a replay file is named"),
        ]
        let flood: [([String], String)] = [
            ([], "Missing expected argument '--password <password>'"),
            (["--password", "x", "--target", "192.168.1.1:5060"], "'192.168.1.1' is not a loopback address"),
            (["--password", "x", "--target", "127.0.0.1"], "is not HOST:PORT"),
            (["--password", "x", "--rate", "0"], "the rate must be above 0"),
            (["--password", "x", "--duration=-1"], "the duration must be from 0 to 3600 s"),
        ]
        for (tool, cases) in [("sip-fuzz", fuzz), ("sip-flood", flood)] {
            let path = try executable(tool)
            for (arguments, message) in cases {
                let result = try SipwakeProcess.run(path, ["--target", "127.0.0.1:\(silent)"] + arguments)
                let context = "\(tool) \(arguments)\n\(result.stdout)\n\(result.stderr)"
                XCTAssertEqual(result.status, 2, context)
                XCTAssertEqual(result.stdout, "", context)
                XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, context)
                XCTAssertTrue(result.stderr.hasPrefix("\(tool): error: "), context)
                XCTAssertTrue(result.stderr.contains(message), context)
            }
            XCTAssertEqual(try SipwakeProcess.run(path, ["--help"]).status, 0, tool)
        }

        // Nothing answers on that port: the fuzzer gives up before its first input.
        let result = try SipwakeProcess.run(try executable("sip-fuzz"), [
            "--target", "127.0.0.1:\(silent)", "--duration", "1", "--probe-timeout", "0.5", "--seed", "1",
        ])
        let context = "\(result.stdout)\n\(result.stderr)"
        XCTAssertEqual(result.status, 2, context)
        XCTAssertEqual(result.stdout, "", context)
        let last = try XCTUnwrap(result.stderr.split(separator: "\n").last.map(String.init), context)
        XCTAssertEqual(last, "sip-fuzz: error: 127.0.0.1:\(silent) does not answer OPTIONS over UDP: start the server first", context)
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
