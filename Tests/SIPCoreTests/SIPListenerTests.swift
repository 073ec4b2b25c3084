import Model
import SIPCore
import Testing

/// A listener's transport is the model's `SIPTransport`, and Sofia's URL follows it.
@Suite struct SIPListenerTests {
    @Test func sofiaURLNamesTheTransport() {
        #expect(SIPListener(transport: .udp, host: "127.0.0.1", port: 5060).sofiaURL
                == "sip:127.0.0.1:5060;transport=udp")
        #expect(SIPListener(transport: .tcp, host: "127.0.0.1", port: 5060).sofiaURL
                == "sip:127.0.0.1:5060;transport=tcp")
        #expect(SIPListener(transport: .tls, host: "127.0.0.1", port: 5061).sofiaURL
                == "sips:127.0.0.1:5061;transport=tls")
    }

    @Test func ipv6HostsAreBracketed() {
        #expect(SIPListener(transport: SIPTransport.udp, host: "::1", port: 5060).sofiaURL
                == "sip:[::1]:5060;transport=udp")
    }
}
