import Foundation
import HummingbirdTesting
import XCTest

/// The curl commands of docs/reporter.md, run by the real curl against the
/// live server: the form, JSON and Digest variants, then the removal.
/// Skipped when curl is not installed.
extension ReporterTests {
    func testCurlCommandsFromTheDocsWork() async throws {
        let curl = "/usr/bin/curl"
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: curl), "curl not installed")
        try await withServer { client, fixture in
            let base = "http://127.0.0.1:\(try XCTUnwrap(client.port))"
            let form = try Self.run(curl, ["-sS", "\(base)/push/report",
                "--data-urlencode", "username=alice", "--data-urlencode", "password=alice-secret",
                "--data-urlencode", "selector=\(Self.selector)",
                "--data-urlencode", "pushTokenIncomingCall=\(Self.apnsToken)",
                "--data-urlencode", "pushappid_incoming_call=\(Self.voipAppID)",
                "--data-urlencode", "pushTokenOther=\(Self.apnsToken2)",
                "--data-urlencode", "pushappid_other=\(Self.appID)",
                "--data-urlencode", "platform=ios"])
            XCTAssertTrue(form.contains(#""created":true"#), form)

            let json = try Self.run(curl, ["-sS", "\(base)/push/report", "-H", "Content-Type: application/json", "-d",
                #"{"username":"alice","password":"alice-secret","selector":"\#(Self.selector2)","pushToken":"\#(Self.fcmToken)","pushappid":"\#(Self.appID)","platform":"android"}"#])
            XCTAssertTrue(json.contains(#""created":true"#), json)

            let selector = Self.selector.replacingOccurrences(of: ":", with: "%3A")
            let digest = try Self.run(curl, ["-sS", "--digest", "-u", "alice:alice-secret",
                "\(base)/push/report?selector=\(selector)&pushTokenIncomingCall=\(Self.apnsToken2)&pushappid_incoming_call=\(Self.voipAppID)"])
            XCTAssertTrue(digest.contains(#""created":false"#), digest)
            XCTAssertEqual(try fixture.tuples.list(username: "alice").first?.tokenCalls, Self.apnsToken2)

            let removal = try Self.run(curl, ["-sS", "\(base)/push/remove",
                "--data-urlencode", "username=alice", "--data-urlencode", "password=alice-secret",
                "--data-urlencode", "selector=\(Self.selector)"])
            XCTAssertTrue(removal.contains(#""removed":true"#), removal)
            XCTAssertEqual(try fixture.tuples.list(username: "alice").map(\.selector), [Self.selector2])
        }
    }

    /// Runs a program and returns its standard output.
    static func run(_ program: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "\(program) \(arguments)")
        return String(decoding: data, as: UTF8.self)
    }
}
