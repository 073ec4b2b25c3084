import Config
import Foundation
import Metrics
import Model
@testable import SIPWake
import Testing

/// One authenticator decides, for REGISTER and for calls alike, which
/// sources go on without credentials.
@Suite struct SIPAuthenticatorTrustTests {
    func authenticator(_ toml: String) throws -> SIPAuthenticator {
        let config = try SipwakeConfig.parse(toml, file: "/srv/sipwake/etc/sipwake.toml", environment: [:])
        return SIPAuthenticator(settings: RegistrarSettings(config: config, nonceSecret: Array("s".utf8)),
                                lookUp: { _ in }, logger: .init(label: "test"), metrics: NOOPMetricsHandler.instance,
                                clock: { Date() })
    }

    func source(_ host: String) -> BindingSource { BindingSource(transport: .udp, host: host, port: 5060) }

    @Test func trustedPeersGoOnOthersAreChallenged() throws {
        let auth = try authenticator("[auth]\ntrusted_peers = [\"10.0.0.0/8\"]\n")
        #expect(auth.isTrusted(source("10.1.2.3")))
        #expect(!auth.isTrusted(source("192.0.2.1")))
    }

    @Test func everySourceIsTrustedWhenAuthenticationIsOff() throws {
        let auth = try authenticator("[auth]\nenabled = false\n")
        #expect(auth.isTrusted(source("192.0.2.1")))
    }
}
