import XCTest
@testable import Registrar

final class DigestCredentialsTests: XCTestCase {
    let base = ["username": "alice", "realm": "r", "nonce": "n", "uri": "sip:r", "response": "abc"]

    func testMissingAlgorithmMeansMD5() throws {
        let credentials = try XCTUnwrap(DigestCredentials(parameters: base))
        XCTAssertEqual(credentials, DigestCredentials(username: "alice", realm: "r", nonce: "n", uri: "sip:r", response: "abc", algorithm: .md5))
    }

    func testAlgorithmTokenIsCaseInsensitive() {
        XCTAssertEqual(DigestCredentials(parameters: base.merging(["algorithm": "sha-256"]) { $1 })?.algorithm, .sha256)
    }

    func testUnknownAlgorithmIsRejected() {
        XCTAssertNil(DigestCredentials(parameters: base.merging(["algorithm": "SHA-512-256"]) { $1 }))
        XCTAssertNil(DigestCredentials(parameters: base.merging(["algorithm": "MD5-sess"]) { $1 }))
    }

    func testEachRequiredParameterIsRequired() {
        for name in base.keys {
            var parameters = base
            parameters[name] = nil
            XCTAssertNil(DigestCredentials(parameters: parameters), name)
        }
    }

    func testQopRequiresNcAndCnonce() {
        XCTAssertNil(DigestCredentials(parameters: base.merging(["qop": "auth", "nc": "00000001"]) { $1 }))
        XCTAssertNil(DigestCredentials(parameters: base.merging(["qop": "auth", "cnonce": "c"]) { $1 }))
        let full = DigestCredentials(parameters: base.merging(["qop": "auth", "nc": "00000001", "cnonce": "c", "opaque": "o"]) { $1 })
        XCTAssertEqual(full?.qop, "auth")
        XCTAssertEqual(full?.nc, "00000001")
        XCTAssertEqual(full?.cnonce, "c")
        XCTAssertEqual(full?.opaque, "o")
    }
}
