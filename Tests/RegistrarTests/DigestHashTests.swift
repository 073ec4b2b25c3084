import XCTest
@testable import Registrar

final class DigestHashTests: XCTestCase {
    /// RFC 2617 §3.5: Mufasa / "Circle Of Life", qop=auth, GET /dir/index.html.
    func testRFC2617MD5Example() {
        let ha1 = DigestHash.ha1(username: "Mufasa", realm: "testrealm@host.com", password: "Circle Of Life", algorithm: .md5)
        XCTAssertEqual(ha1, "939e7578ed9e3c518a452acee763bce9")
        let response = DigestHash.response(
            ha1: ha1, nonce: "dcd98b7102dd2f0e8b11d0f600bfb0c093", method: "GET", uri: "/dir/index.html",
            qop: "auth", nc: "00000001", cnonce: "0a4f113b", algorithm: .md5)
        XCTAssertEqual(response, "6629fae49393a05397450978507c4ef1")
    }

    /// RFC 7616 §3.9.1: the same exchange with SHA-256 (and its MD5 twin).
    func testRFC7616SHA256Example() {
        let nonce = "7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v"
        let cnonce = "f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ"
        let sha = DigestHash.ha1(username: "Mufasa", realm: "http-auth@example.org", password: "Circle of Life", algorithm: .sha256)
        XCTAssertEqual(DigestHash.response(ha1: sha, nonce: nonce, method: "GET", uri: "/dir/index.html",
                                           qop: "auth", nc: "00000001", cnonce: cnonce, algorithm: .sha256),
                       "753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1")
        let md5 = DigestHash.ha1(username: "Mufasa", realm: "http-auth@example.org", password: "Circle of Life", algorithm: .md5)
        XCTAssertEqual(DigestHash.response(ha1: md5, nonce: nonce, method: "GET", uri: "/dir/index.html",
                                           qop: "auth", nc: "00000001", cnonce: cnonce, algorithm: .md5),
                       "8ca523f5e9506fed4657c9700eebdbec")
    }

    /// RFC 2069 form, without qop: H(HA1:nonce:H(method:uri)).
    func testResponseWithoutQop() {
        let ha1 = "939e7578ed9e3c518a452acee763bce9"
        let ha2 = DigestHash.hash("REGISTER:sip:example.com", algorithm: .md5)
        XCTAssertEqual(DigestHash.response(ha1: ha1, nonce: "n", method: "REGISTER", uri: "sip:example.com",
                                           qop: nil, nc: nil, cnonce: nil, algorithm: .md5),
                       DigestHash.hash("\(ha1):n:\(ha2)", algorithm: .md5))
        XCTAssertEqual(DigestHash.hash("", algorithm: .md5), "d41d8cd98f00b204e9800998ecf8427e")
        XCTAssertEqual(DigestHash.hash("", algorithm: .sha256), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }
}
