import Foundation
import XCTest

extension SipwakeProcess {
    /// The call's record from `sipwake calls show KEY --json`, once it has
    /// ended (waits up to 10 s; an empty record and a test failure otherwise).
    func endedCallRecord(_ key: String, file: StaticString = #filePath, line: UInt = #line) async throws -> [String: Any] {
        try await callRecord(key, once: "ended", file: file, line: line) { !($0["outcome"] is NSNull) && $0["outcome"] != nil }
    }

    /// The call's record once it has its hang-up (`hung_up_at`).
    func hungUpCallRecord(_ key: String, file: StaticString = #filePath, line: UInt = #line) async throws -> [String: Any] {
        try await callRecord(key, once: "hung up", file: file, line: line) { $0["hung_up_at"] is String }
    }

    /// The call's record once `done` holds for it (waits up to 10 s; an
    /// empty record and a test failure otherwise).
    private func callRecord(_ key: String, once state: String, file: StaticString, line: UInt,
                            _ done: ([String: Any]) -> Bool) async throws -> [String: Any] {
        var last = ""
        for _ in 0..<100 {
            let result = try cli(["calls", "show", key, "--json"])
            last = result.stdout + result.stderr
            if result.status == 0, let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
               done(object) {
                return object
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        XCTFail("no \(state) call record for \(key): \(last)", file: file, line: line)
        return [:]
    }
}
