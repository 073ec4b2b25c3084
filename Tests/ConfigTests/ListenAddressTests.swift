import Testing
import Config

@Suite struct ListenAddressTests {
    @Test(arguments: [
        ("udp:127.0.0.1:5060", ListenTransport.udp, "127.0.0.1", 5060),
        ("TCP:0.0.0.0:5060", .tcp, "0.0.0.0", 5060),
        ("tls:sip.example.com:5061", .tls, "sip.example.com", 5061),
        ("tcp:[::1]:5060", .tcp, "::1", 5060),
        ("udp:[::]:1", .udp, "::", 1),
        ("tls:[2001:db8::10]:65535", .tls, "2001:db8::10", 65535),
        ("udp:localhost:5060", .udp, "localhost", 5060),
    ])
    func parsesValidAddresses(text: String, transport: ListenTransport, host: String, port: Int) throws {
        let address = try #require(ListenAddress(text))
        #expect(address == ListenAddress(transport: transport, host: host, port: port))
    }

    @Test(arguments: [
        "udp:1.2.3", "udp:127.0.0.1", "udp:127.0.0.1:0", "udp:127.0.0.1:65536", "udp:127.0.0.1:-1",
        "udp:127.0.0.1:50 60", "udp::5060", "sctp:127.0.0.1:5060", "127.0.0.1:5060", "tcp:::1:5060",
        "tcp:[::1:5060", "tcp:[]:5060", "tcp:[127.0.0.1]:5060", "udp:1.2.3:5060", "udp:bad host:5060",
        "udp:-bad.example:5060", "udp:127.0.0.1:+5060", "",
    ])
    func rejectsInvalidAddresses(text: String) {
        #expect(ListenAddress(text) == nil)
    }

    @Test func descriptionPutsIPv6InBrackets() throws {
        let v6 = try #require(ListenAddress("tcp:[::1]:5060"))
        #expect(v6.uriHost == "[::1]")
        #expect(v6.description == "tcp:[::1]:5060")
        let v4 = try #require(ListenAddress("UDP:127.0.0.1:5060"))
        #expect(v4.uriHost == "127.0.0.1")
        #expect(v4.description == "udp:127.0.0.1:5060")
    }
}
