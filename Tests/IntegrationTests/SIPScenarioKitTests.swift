import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import XCTest

/// The SIPp kit in sip-scenarios/ is part of the product. CI has no SIPp, so
/// the flows themselves run in CallFlowTests; here the kit's files are
/// checked: every scenario is well-formed XML that opens with a comment naming
/// it, and every script parses and answers --help without SIPp.
final class SIPScenarioKitTests: XCTestCase {
    private var kit: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("sip-scenarios")
    }

    func testEveryScenarioIsWellFormedAndSaysWhatItPlays() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: kit.path).filter { $0.hasSuffix(".xml") }.sorted()
        XCTAssertGreaterThanOrEqual(files.count, 15)
        for name in files {
            let url = kit.appendingPathComponent(name)
            let text = try String(contentsOf: url, encoding: .isoLatin1)
            let parser = XMLParser(data: Data(text.replacingOccurrences(of: "<!DOCTYPE scenario SYSTEM \"sipp.dtd\">", with: "").utf8))
            XCTAssertTrue(parser.parse(), "\(name): \(parser.parserError.map { "\($0)" } ?? "")")
            let comment = text.range(of: "<!--").map { text[$0.upperBound...].prefix(400) } ?? ""
            XCTAssertTrue(comment.contains(name), "\(name) opens with no comment naming it")
        }
    }

    func testTheFlowsInRunAreTheFlowsOfTheREADME() throws {
        let run = try String(contentsOf: kit.appendingPathComponent("run"), encoding: .utf8)
        let readme = try String(contentsOf: kit.appendingPathComponent("README.md"), encoding: .utf8)
        let flows = ["answer", "wake", "two-devices", "caller-cancel", "answered-elsewhere", "rereg", "timeout",
                     "stale-token", "decline", "apns-app", "fcm-app", "webhook", "webhook-404", "rfc8599"]
        let list = try XCTUnwrap(run.range(of: "flows=(").map { run[$0.upperBound...] }?.prefix { $0 != ")" })
        XCTAssertEqual(list.split(whereSeparator: \.isWhitespace).map(String.init), flows, "the flows of `run all`")
        for flow in flows {
            XCTAssertTrue(run.contains("flow_\(flow.replacingOccurrences(of: "-", with: "_"))()"), "run has no flow \(flow)")
            XCTAssertTrue(readme.contains("| `\(flow)` |"), "README does not describe \(flow)")
        }
    }

    func testScriptsParseAndExplainThemselves() throws {
        for script in ["run", "bench", "bench-calls", "bench-register"] {
            let path = kit.appendingPathComponent(script).path
            let syntax = try SipwakeProcess.run("/bin/bash", ["-n", path])
            XCTAssertEqual(syntax.status, 0, "\(script): \(syntax.stderr)")
            let help = try SipwakeProcess.run(path, ["--help"])
            XCTAssertEqual(help.status, 0, "\(script) --help: \(help.stderr)")
            XCTAssertTrue(help.stdout.contains("Usage: sip-scenarios/\(script)"), "\(script) --help:\n\(help.stdout)")
        }
    }

    func testRunRefusesAnUnknownFlowWithAClearError() throws {
        let result = try SipwakeProcess.run(kit.appendingPathComponent("run").path, ["no-such-flow"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("unknown flow 'no-such-flow'"), result.stderr)
    }
}
