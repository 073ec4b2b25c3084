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

    @Test func aListedAppIsPushedThroughItsOwnProviderAndAnUnlistedAppThroughTheGateway() {
        let providers = PushProviders([AcrobitsProvider(settings: AcrobitsSettings())],
                                      apps: ["com.example.phone": APNsFixtures.provider()])
        var calls = PushFixtures.incomingCall()
        calls.appID = "com.example.phone"
        calls.provider = "apns"
        #expect(providers.provider(for: calls)?.name == "apns")
        // The same tuple's other app is not listed: the reporter accepted it
        // because the gateway reaches it, so its pushes go there.
        var other = calls
        other.appID = "com.example.phone.alerts"
        #expect(providers.provider(for: other)?.name == "acrobits")
        // Without a gateway there is nothing to fall back to.
        let direct = PushProviders([], apps: ["com.example.phone": APNsFixtures.provider()])
        #expect(direct.provider(for: calls)?.name == "apns")
        #expect(direct.provider(for: other) == nil)
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
