import XCTest
@testable import Registrar

final class NonceIssuerTests: XCTestCase {
    let t0 = RegisterFixture.t0
    let issuer = NonceIssuer(secret: Array("secret-one".utf8), lifetime: 300, realm: "r")

    func testFreshNonceIsValidUntilLifetime() {
        let nonce = issuer.make(now: t0)
        XCTAssertEqual(issuer.check(nonce, now: t0), .valid)
        XCTAssertEqual(issuer.check(nonce, now: t0.addingTimeInterval(300)), .valid)
        XCTAssertEqual(issuer.check(nonce, now: t0.addingTimeInterval(300.5)), .stale)
    }

    func testNonceIsURLSafeAndCarriesItsTime() {
        let nonce = issuer.make(now: t0)
        XCTAssertTrue(nonce.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }, nonce)
        XCTAssertNotEqual(nonce, issuer.make(now: t0.addingTimeInterval(0.001)))
        XCTAssertEqual(issuer.issueTime(of: nonce), t0)
    }

    /// Every challenge gets a nonce of its own, even in the same millisecond.
    func testNoncesOfTheSameMillisecondDiffer() {
        let nonces = Set((0..<1000).map { _ in issuer.make(now: t0) })
        XCTAssertEqual(nonces.count, 1000)
        XCTAssertTrue(nonces.allSatisfy { issuer.check($0, now: t0) == .valid })
    }

    func testOtherSecretOrRealmIsInvalid() {
        let nonce = issuer.make(now: t0)
        XCTAssertEqual(NonceIssuer(secret: Array("secret-two".utf8), lifetime: 300, realm: "r").check(nonce, now: t0), .invalid)
        XCTAssertEqual(NonceIssuer(secret: Array("secret-one".utf8), lifetime: 300, realm: "s").check(nonce, now: t0), .invalid)
    }

    func testMalformedNonceIsInvalid() {
        XCTAssertEqual(issuer.check("", now: t0), .invalid)
        XCTAssertEqual(issuer.check("not a nonce!", now: t0), .invalid)
        XCTAssertEqual(issuer.check(String(issuer.make(now: t0).dropLast(2)), now: t0), .invalid)
    }
}
