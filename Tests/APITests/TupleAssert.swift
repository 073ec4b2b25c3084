import Foundation
import Model
import XCTest

/// Checks a device tuple against what a reporter or an administrator sent: in
/// the JSON both APIs answer with, and as the store holds it.
enum TupleAssert {
    /// `json` is the tuple of `username` and `selector` with these pairs, each
    /// (app id, token), and this platform.
    static func json(
        _ json: [String: Any], username: String, selector: String, calls: (String, String), other: (String, String),
        platform: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(json["username"] as? String, username, file: file, line: line)
        XCTAssertEqual(json["selector"] as? String, selector, file: file, line: line)
        XCTAssertEqual(json["app_id_calls"] as? String, calls.0, file: file, line: line)
        XCTAssertEqual(json["token_calls"] as? String, calls.1, file: file, line: line)
        XCTAssertEqual(json["app_id_other"] as? String, other.0, file: file, line: line)
        XCTAssertEqual(json["token_other"] as? String, other.1, file: file, line: line)
        XCTAssertEqual(json["platform"] as? String, platform, file: file, line: line)
    }

    /// The stored tuple has these pairs, each (app id, token), and this platform.
    static func stored(
        _ tuple: DeviceTuple, calls: (String, String), other: (String, String),
        platform: DevicePlatform?, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(tuple.appIDCalls, calls.0, file: file, line: line)
        XCTAssertEqual(tuple.tokenCalls, calls.1, file: file, line: line)
        XCTAssertEqual(tuple.appIDOther, other.0, file: file, line: line)
        XCTAssertEqual(tuple.tokenOther, other.1, file: file, line: line)
        XCTAssertEqual(tuple.platform, platform, file: file, line: line)
    }
}
