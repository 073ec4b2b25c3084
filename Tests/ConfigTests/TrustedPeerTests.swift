import Testing
import Config

@Suite struct TrustedPeerTests {
    @Test func singleIPv4Address() throws {
        let peer = try #require(TrustedPeer("127.0.0.2"))
        #expect(peer.prefixLength == 32)
        #expect(peer.contains("127.0.0.2"))
        #expect(!peer.contains("127.0.0.3"))
        #expect(peer.description == "127.0.0.2")
    }

    @Test func ipv4Range() throws {
        let peer = try #require(TrustedPeer("10.0.0.0/8"))
        #expect(peer.contains("10.0.0.1"))
        #expect(peer.contains("10.255.255.255"))
        #expect(!peer.contains("11.0.0.0"))
        #expect(!peer.contains("9.255.255.255"))
        #expect(peer.description == "10.0.0.0/8")
    }

    @Test func ipv4RangeNotOnAByteBoundary() throws {
        let peer = try #require(TrustedPeer("192.168.4.0/22"))
        #expect(peer.contains("192.168.4.1"))
        #expect(peer.contains("192.168.7.254"))
        #expect(!peer.contains("192.168.8.0"))
        #expect(!peer.contains("192.168.3.255"))
    }

    @Test func hostBitsAreCleared() throws {
        let peer = try #require(TrustedPeer("10.1.2.3/8"))
        #expect(peer.description == "10.0.0.0/8")
        #expect(peer == TrustedPeer("10.0.0.0/8"))
    }

    @Test func zeroPrefixMatchesEverythingOfItsFamily() throws {
        let peer = try #require(TrustedPeer("0.0.0.0/0"))
        #expect(peer.contains("203.0.113.9"))
        #expect(!peer.contains("2001:db8::1"))
    }

    @Test func singleIPv6Address() throws {
        let peer = try #require(TrustedPeer("::1"))
        #expect(peer.isIPv6)
        #expect(peer.prefixLength == 128)
        #expect(peer.contains("::1"))
        #expect(peer.contains("[::1]"))
        #expect(peer.contains("0:0:0:0:0:0:0:1"))
        #expect(!peer.contains("::2"))
        #expect(!peer.contains("127.0.0.1"))
    }

    @Test func ipv6Range() throws {
        let peer = try #require(TrustedPeer("2001:db8::/32"))
        #expect(peer.contains("2001:db8::1"))
        #expect(peer.contains("2001:db8:ffff:ffff::1"))
        #expect(peer.contains("fe80::1%eth0") == false)
        #expect(!peer.contains("2001:db9::1"))
        #expect(peer.description == "2001:db8::/32")
    }

    @Test func ipv6RangeNotOnAByteBoundary() throws {
        let peer = try #require(TrustedPeer("fd00::/7"))
        #expect(peer.contains("fc00::1"))
        #expect(peer.contains("fdff::1"))
        #expect(!peer.contains("fe00::1"))
    }

    @Test func ipv4MappedAddressesMatchIPv4Ranges() throws {
        let v4 = try #require(TrustedPeer("10.0.0.0/8"))
        #expect(v4.contains("::ffff:10.1.2.3"))
        #expect(!v4.contains("::ffff:11.1.2.3"))
        let mapped = try #require(TrustedPeer("::ffff:10.0.0.0/104"))
        #expect(mapped.contains("10.9.9.9"))
        #expect(!mapped.contains("11.9.9.9"))
    }

    @Test func notAnAddressIsNeverContained() throws {
        let peer = try #require(TrustedPeer("0.0.0.0/0"))
        #expect(!peer.contains("pbx.example.com"))
        #expect(!peer.contains(""))
    }

    @Test(arguments: ["", "10.0.0.0/", "10.0.0.0/33", "::1/129", "10.0.0/8", "pbx.example.com", "10.0.0.0/8/8",
                      "10.0.0.0/-1", "10.0.0.0/a", "[::1]", "1.2.3.4 "])
    func rejectsInvalidPeers(text: String) {
        #expect(TrustedPeer(text) == nil)
    }

    @Test func authSectionChecksAllPeers() throws {
        let config = try SipwakeConfig.parse(
            "[auth]\ntrusted_peers = [\"127.0.0.2\", \"10.0.0.0/8\", \"::1\"]",
            file: ConfigTestSupport.file, environment: [:])
        #expect(config.auth.isTrusted("127.0.0.2"))
        #expect(config.auth.isTrusted("10.20.30.40"))
        #expect(config.auth.isTrusted("::1"))
        #expect(!config.auth.isTrusted("127.0.0.1"))
        #expect(!config.auth.isTrusted("192.168.1.1"))
    }
}
