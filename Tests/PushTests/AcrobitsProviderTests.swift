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
        guard case .send(let request) = provider.request(for: message, at: Date()) else {
            Issue.record("the gateway provider always sends")
            return
        }
        #expect(request.url == "https://gateway.example/pnm2/send")
        #expect(request.method == "POST")
        #expect(request.headers == [PushHTTPHeader("Content-Type", "application/json"),
                                    PushHTTPHeader("Accept", "application/json"), PushHTTPHeader("X-Tenant", "lab")])
        #expect(request.body == AcrobitsPayload(message).jsonBody)
    }

    @Test func aBindingRefreshIsNeverSentToTheGateway() {
        var refresh = PushFixtures.incomingCall()
        refresh.event = .bindingRefresh
        #expect(provider.request(for: refresh, at: Date())
            == .refuse(.failed(status: nil, detail: "no binding-refresh push through the Acrobits gateway")))
    }

    @Test func answersAreReadByTheGatewayRules() {
        let gone = provider.classify(.response(status: 410, headers: [], body: Data()), to: PushHTTPRequest(url: ""))
        #expect(gone == PushResult(kind: .tokenGone, httpStatus: 410, detail: nil))
    }

    @Test func aBusyGatewaysRetryAfterIsKeptForTheRetry() {
        let busy = provider.classify(.response(status: 503, headers: [PushHTTPHeader("Retry-After", "3")], body: Data()),
                                     to: PushHTTPRequest(url: ""))
        #expect(busy.kind == .retryable)
        #expect(busy.retryAfter == 3)
        let refused = provider.classify(.response(status: 400, headers: [PushHTTPHeader("Retry-After", "3")], body: Data()),
                                        to: PushHTTPRequest(url: ""))
        #expect(refused.retryAfter == nil)
    }

    @Test func timeoutsAndNetworkErrorsAreRetryableSetupErrorsAreNot() {
        let timeout = provider.classify(.transportFailure(PushTransportFailure(reason: .timeout, message: "30 s")), to: PushHTTPRequest(url: ""))
        #expect(timeout == PushResult(kind: .retryable, httpStatus: nil, detail: "timeout: 30 s"))
        let network = provider.classify(.transportFailure(PushTransportFailure(reason: .network, message: "refused")), to: PushHTTPRequest(url: ""))
        #expect(network == PushResult(kind: .retryable, httpStatus: nil, detail: "refused"))
        let setup = provider.classify(.transportFailure(PushTransportFailure(reason: .setup, message: "bad URL")), to: PushHTTPRequest(url: ""))
        #expect(setup == PushResult(kind: .failed, httpStatus: nil, detail: "bad URL"))
    }
}
