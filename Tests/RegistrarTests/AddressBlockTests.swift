import Registrar
import Testing

/// The limits count an IPv6 sender by its /64, an IPv4 sender by its address.
@Suite struct AddressBlockTests {
    @Test func anIPv6AddressIsCountedByItsSlash64WhateverItsSpelling() {
        let key = AddressBlock.key(for: "2001:db8:1:2::1")
        #expect(key == "2001:db8:1:2::/64")
        #expect(AddressBlock.key(for: "2001:0db8:0001:0002:ffff:ffff:ffff:fffe") == key)
        #expect(AddressBlock.key(for: "[2001:db8:1:2::7]") == key)
        #expect(AddressBlock.key(for: "fe80::1%eth0") == "fe80:0:0:0::/64")
        #expect(AddressBlock.key(for: "2001:db8:1:3::1") != key, "the next /64 is another sender")
    }

    @Test func anythingElseIsItsOwnKey() {
        #expect(AddressBlock.key(for: "192.0.2.7") == "192.0.2.7")
        #expect(AddressBlock.key(for: "not:an:address") == "not:an:address")
    }

    @Test func guessesFromManyAddressesOfOneSlash64AddUp() {
        var limiter = AuthFailureLimiter(limits: .init(perSource: 0, perUser: 3, window: 60, blockTime: 300))
        let now = RegisterFixture.t0
        for host in ["2001:db8::1", "2001:db8::2", "2001:db8::3"] {
            _ = limiter.recordFailure(source: host, user: "alice", now: now)
        }
        #expect(limiter.check(source: "2001:db8::99", user: "alice", now: now) != .allowed)
        #expect(limiter.check(source: "2001:db8:0:1::1", user: "alice", now: now) == .allowed)
    }
}
