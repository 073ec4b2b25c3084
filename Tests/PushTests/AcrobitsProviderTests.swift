import Foundation
import Model
import Ports
import Push
import Testing

@Suite struct AcrobitsProviderTests {
    let provider = AcrobitsProvider(settings: AcrobitsSettings(
        gatewayURL: "https://gateway.example/pnm2/send", extraHeaders: [PushHTTPHeader("X-Tenant", "lab")]))

    @Test func requestPostsTheJSONPayloadToTheGateway() {
        let message = PushFixtures.incomingCall()
        let request = provider.request(for: message)
        #expect(request.url == "https://gateway.example/pnm2/send")
        #expect(request.method == "POST")
        #expect(request.headers == [PushHTTPHeader("Content-Type", "application/json"),
                                    PushHTTPHeader("Accept", "application/json"), PushHTTPHeader("X-Tenant", "lab")])
        #expect(request.body == AcrobitsPayload(message).jsonBody)
    }

    @Test func answersAreReadByTheGatewayRules() {
        let gone = provider.classify(.response(status: 410, headers: [], body: Data()))
        #expect(gone == PushResult(kind: .tokenGone, httpStatus: 410, detail: nil))
    }

    @Test func timeoutsAndNetworkErrorsAreRetryableSetupErrorsAreNot() {
        let timeout = provider.classify(.transportFailure(PushTransportFailure(reason: .timeout, message: "30 s")))
        #expect(timeout == PushResult(kind: .retryable, httpStatus: nil, detail: "timeout: 30 s"))
        let network = provider.classify(.transportFailure(PushTransportFailure(reason: .network, message: "refused")))
        #expect(network == PushResult(kind: .retryable, httpStatus: nil, detail: "refused"))
        let setup = provider.classify(.transportFailure(PushTransportFailure(reason: .setup, message: "bad URL")))
        #expect(setup == PushResult(kind: .failed, httpStatus: nil, detail: "bad URL"))
    }
}
