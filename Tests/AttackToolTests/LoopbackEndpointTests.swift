import SIPAttackSupport
import Testing

/// The tools never talk to anything but 127.0.0.0/8.
@Suite struct LoopbackEndpointTests {
    @Test(arguments: [
        ("127.0.0.1:5060", "127.0.0.1", 5060), ("localhost:1", "127.0.0.1", 1),
        ("127.255.255.254:65535", "127.255.255.254", 65535), ("127.0.0.3:5070", "127.0.0.3", 5070),
    ])
    func loopbackTargetsAreTaken(text: String, host: String, port: Int) throws {
        let endpoint = try LoopbackEndpoint(parsing: text)
        #expect(endpoint.host == host)
        #expect(endpoint.port == port)
    }

    @Test(arguments: ["10.0.0.1:5060", "0.0.0.0:5060", "8.8.8.8:53", "192.168.1.1:5060", "128.0.0.1:5060",
                      "example.com:5060", "[::1]:5060", "::1", "127.0.0.1", "127.0.0.1:0", "127.0.0.1:70000", "127.1:5060", ""])
    func everythingElseIsRefused(text: String) {
        #expect(throws: AttackToolError.self) { try LoopbackEndpoint(parsing: text) }
    }

    @Test(arguments: ["10.1.2.3", "0.0.0.0", "172.16.0.1", "1.2.3.4"])
    func sourcesAreLoopbackToo(text: String) {
        #expect(throws: AttackToolError.self) { try LoopbackEndpoint.address(text) }
    }

    @Test func theRefusalSaysWhy() {
        let error = AttackToolError.notLoopback("8.8.8.8")
        #expect(error.description.contains("127.0.0.0/8"))
    }
}
