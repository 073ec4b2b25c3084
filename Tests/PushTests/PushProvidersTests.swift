import Foundation
import Metrics
import Model
import Ports
import Push
import Testing

@Suite struct PushProvidersTests {
    @Test func providersAreFoundByName() {
        let providers = PushProviders([AcrobitsProvider(settings: AcrobitsSettings())])
        #expect(providers.provider(named: "acrobits")?.name == "acrobits")
        #expect(providers.provider(named: "fcm") == nil)
        #expect(providers.names == ["acrobits"])
    }

    @Test func aPushForAProviderNotConfiguredFailsAtOnce() {
        let client = PushClient(settings: PushClientSettings(), providers: PushProviders([]), logger: PushFixtures.logger,
                                metrics: NOOPMetricsHandler.instance)
        var message = PushFixtures.incomingCall()
        message.provider = "fcm"
        let tally = ResultTally()
        client.send(message) { tally.add($0, for: "fcm") }
        #expect(tally.single("fcm") == PushResult(kind: .failed, detail: "no push provider fcm"))
    }
}
