import Testing
import Config

@Suite struct TrustedPeerTests {
    @Test(arguments: [
        TrustedPeerCase(text: "127.0.0.2", prefixLength: 32, inside: ["127.0.0.2"], outside: ["127.0.0.3"]),
        TrustedPeerCase(text: "10.0.0.0/8", prefixLength: 8,
                        inside: ["10.0.0.1", "10.255.255.255"], outside: ["11.0.0.0", "9.255.255.255"]),
        // A range not on a byte boundary.
        TrustedPeerCase(text: "192.168.4.0/22", prefixLength: 22,
                        inside: ["192.168.4.1", "192.168.7.254"], outside: ["192.168.8.0", "192.168.3.255"]),
        // A zero prefix matches everything of its family, and never what is not an address.
        TrustedPeerCase(text: "0.0.0.0/0", prefixLength: 0,
                        inside: ["203.0.113.9"], outside: ["2001:db8::1", "pbx.example.com", ""]),
        TrustedPeerCase(text: "::1", prefixLength: 128,
                        inside: ["::1", "[::1]", "0:0:0:0:0:0:0:1"], outside: ["::2", "127.0.0.1"]),
        TrustedPeerCase(text: "2001:db8::/32", prefixLength: 32,
                        inside: ["2001:db8::1", "2001:db8:ffff:ffff::1"], outside: ["fe80::1%eth0", "2001:db9::1"]),
        TrustedPeerCase(text: "fc00::/7", prefixLength: 7, inside: ["fc00::1", "fdff::1"], outside: ["fe00::1"]),
    ])
    func matchesItsRange(_ peerCase: TrustedPeerCase) throws {
        let peer = try #require(TrustedPeer(peerCase.text))
        #expect(peer.prefixLength == peerCase.prefixLength)
        #expect(peer.isIPv6 == peerCase.text.contains(":"))
        #expect(peer.description == peerCase.text)
        for address in peerCase.inside {
            #expect(peer.contains(address), "\(address)")
        }
        for address in peerCase.outside {
            #expect(!peer.contains(address), "\(address)")
        }
    }

    @Test func hostBitsAreCleared() throws {
        let peer = try #require(TrustedPeer("10.1.2.3/8"))
        #expect(peer.description == "10.0.0.0/8")
        #expect(peer == TrustedPeer("10.0.0.0/8"))
        let v6 = try #require(TrustedPeer("fd00::/7"))
        #expect(v6.description == "fc00::/7")
        #expect(v6 == TrustedPeer("fc00::/7"))
    }

    @Test func ipv4MappedAddressesMatchIPv4Ranges() throws {
        let v4 = try #require(TrustedPeer("10.0.0.0/8"))
        #expect(v4.contains("::ffff:10.1.2.3"))
        #expect(!v4.contains("::ffff:11.1.2.3"))
        let mapped = try #require(TrustedPeer("::ffff:10.0.0.0/104"))
        #expect(mapped.contains("10.9.9.9"))
        #expect(!mapped.contains("11.9.9.9"))
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
