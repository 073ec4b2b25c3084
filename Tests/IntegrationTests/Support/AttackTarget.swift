import SIPAttackSupport

/// A sipwake started for the attack tools: UDP and TCP on `sipPort`, TLS on
/// `tlsPort`, pushes off (nothing leaves the machine), alice and bob as users.
struct AttackTarget {
    let server: SipwakeProcess
    let sipPort: Int
    let tlsPort: Int
    let certificate: TestCertificate

    var endpoint: LoopbackEndpoint { get throws { try LoopbackEndpoint(host: "127.0.0.1", port: sipPort) } }
    var tlsEndpoint: LoopbackEndpoint { get throws { try LoopbackEndpoint(host: "127.0.0.1", port: tlsPort) } }

    static func config(sipPort: Int, tlsPort: Int, certificate: TestCertificate) -> String {
        """
        [sip]
        listen = ["udp:127.0.0.1:\(sipPort)", "tcp:127.0.0.1:\(sipPort)", "tls:127.0.0.1:\(tlsPort)"]
        \(certificate.configSection)
        [push]
        enabled = false
        [log]
        level = "info"
        """
    }
}
