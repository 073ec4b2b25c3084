import Foundation
import XCTest

extension SipwakeProcess {
    /// The call's record from `sipwake calls show KEY --json`, once it has
    /// ended (waits up to 10 s; an empty record and a test failure otherwise).
    func endedCallRecord(_ key: String, file: StaticString = #filePath, line: UInt = #line) async throws -> [String: Any] {
        var last = ""
        for _ in 0..<100 {
            let result = try cli(["calls", "show", key, "--json"])
            last = result.stdout + result.stderr
            if result.status == 0, let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
               !(object["outcome"] is NSNull), object["outcome"] != nil {
                return object
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        XCTFail("no ended call record for \(key): \(last)", file: file, line: line)
        return [:]
    }
}
