import XCTest
@testable import Registrar

final class DigestClientQuirksTests: XCTestCase {
    let both = [DigestAlgorithm.md5, .sha256].map {
        DigestChallenge(algorithm: $0, realm: "localhost", nonce: "n", stale: false)
    }

    private func offered(_ challenges: [DigestChallenge], _ userAgent: String?) -> [DigestAlgorithm] {
        DigestClientQuirks.challenges(challenges, userAgent: userAgent).map(\.algorithm)
    }

    func testOldBaresipGetsOnlyTheMD5Challenge() {
        XCTAssertEqual(offered(both, "baresip v1.0.0 (x86_64/linux)"), [.md5])
        XCTAssertEqual(offered(Array(both.reversed()), "baresip v2.12.0 (arm64/darwin)"), [.md5])
        XCTAssertEqual(offered(both, "Baresip/0.6.6"), [.md5])
    }

    func testOtherClientsGetEveryChallengeInTheConfiguredOrder() {
        XCTAssertEqual(offered(both, "sipsak 0.9.8.1"), [.md5, .sha256])
        XCTAssertEqual(offered(Array(both.reversed()), "Linphone-Desktop/5.1 (belle-sip/5.1)"), [.sha256, .md5])
        XCTAssertEqual(offered(both, "baresip v3.10.1 (x86_64/linux)"), [.md5, .sha256])
        XCTAssertEqual(offered(both, "baresip"), [.md5, .sha256], "no version: nothing known")
        XCTAssertEqual(offered(both, nil), [.md5, .sha256])
    }

    /// With MD5 disabled the phone still gets what the operator enabled.
    func testOldBaresipGetsSHA256WhenMD5IsDisabled() {
        XCTAssertEqual(offered([both[1]], "baresip v1.0.0 (x86_64/linux)"), [.sha256])
    }
}
