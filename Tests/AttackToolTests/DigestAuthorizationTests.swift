import SIPFlood
import Testing

@Suite struct DigestAuthorizationTests {
    /// RFC 2617 §3.5.
    @Test func theRFCExampleGivesItsResponse() {
        let challenge = DigestChallengeFields(realm: "testrealm@host.com", nonce: "dcd98b7102dd2f0e8b11d0f600bfb0c093",
                                              qop: ["auth", "auth-int"], opaque: "5ccc069c403ebaf9f0171e9517f40e41")
        let digest = DigestAuthorization(username: "Mufasa", password: "Circle Of Life")
        #expect(digest.response(challenge: challenge, method: "GET", uri: "/dir/index.html", nc: 1, cnonce: "0a4f113b")
            == "6629fae49393a05397450978507c4ef1")
        let header = digest.header(challenge: challenge, method: "GET", uri: "/dir/index.html", nc: 1, cnonce: "0a4f113b")
        #expect(header.contains("qop=auth, nc=00000001, cnonce=\"0a4f113b\""))
        #expect(header.contains("opaque=\"5ccc069c403ebaf9f0171e9517f40e41\""))
    }

    @Test func nonceCountsAreEightHexDigits() {
        #expect(DigestAuthorization.nonceCount(1) == "00000001")
        #expect(DigestAuthorization.nonceCount(255) == "000000ff")
    }

    @Test func sipwakesChallengeParses() throws {
        let fields = try #require(DigestChallengeFields(header: "Digest realm=\"localhost\", nonce=\"AAAB-x_y\", algorithm=MD5, qop=\"auth\", stale=true"))
        #expect(fields == DigestChallengeFields(realm: "localhost", nonce: "AAAB-x_y", algorithm: "MD5", qop: ["auth"]))
        let quoted = try #require(DigestChallengeFields(header: "Digest realm=\"a, \\\"b\\\"\",nonce=n,qop=\"auth,auth-int\""))
        #expect(quoted.realm == "a, \"b\"")
        #expect(quoted.nonce == "n")
        #expect(quoted.algorithm == "MD5")
        #expect(quoted.qop == ["auth", "auth-int"])
        #expect(DigestChallengeFields(header: "Basic realm=\"x\"") == nil)
        #expect(DigestChallengeFields(header: "Digest realm=\"x\"") == nil)
    }
}
