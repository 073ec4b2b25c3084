import Foundation
import Model
import Ports
import Push
import Testing

@Suite struct WebhookProviderTests {
    static let current = "0123456789abcdef0123456789abcdef"
    static let previous = "fedcba9876543210fedcba9876543210"
    static let settings = WebhookSettings(
        global: WebhookEndpoint(url: "https://backend.example/sipwake", secrets: [current], timeout: 4),
        domains: ["rotating.example": WebhookEndpoint(url: "https://rotating.example/hook", secrets: [current, previous]),
                  "quiet.example": nil])
    let provider = WebhookProvider(settings: Self.settings)

    static func message(_ event: PushEvent = .incomingCall, account: String = "example.com",
                        outcome: CallOutcome? = nil) -> PushMessage {
        PushMessage(provider: "webhook", event: event, tupleID: 0, appID: "webhook", deviceToken: account,
                    selector: "webhook", pairingID: "pair-7", callerDisplayName: "John Smith",
                    callerUser: "+14155551234", callerDomain: "pbx.example", media: "audio", badge: 0, sound: nil,
                    sentAt: Date(timeIntervalSince1970: 1_775_831_405), callee: "alice",
                    callStartedAt: Date(timeIntervalSince1970: 1_775_831_400), callOutcome: outcome,
                    calledNumber: "+14155559876")
    }

    private func signed(_ message: PushMessage, at now: Date = Date(timeIntervalSince1970: 1_700_000_000)) -> PushHTTPRequest? {
        guard case .send(let request) = provider.request(for: message, at: now) else { return nil }
        return request
    }

    private static func header(_ request: PushHTTPRequest, _ name: String) -> String? {
        request.headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    @Test func theSignatureIsHMACSHA256OfTheTimestampAndTheBody() {
        // Checked against Python: hmac.new(secret, b'1700000000.{"a":1}', hashlib.sha256).hexdigest()
        let body = Data(#"{"a":1}"#.utf8)
        #expect(WebhookSignature.signature(body: body, timestamp: 1_700_000_000, secret: Self.current)
            == "f05f2539e3ae1c49aec5f8cfdad75ef6b06480b133973ffbb7ec9e18827af177")
        #expect(WebhookSignature.header(body: body, timestamp: 1_700_000_000, secrets: [Self.current, Self.previous])
            == "t=1700000000,v1=f05f2539e3ae1c49aec5f8cfdad75ef6b06480b133973ffbb7ec9e18827af177,"
             + "v1=986c55563a3593317977ea9e822a11c288f6b65b222f60f84fe6fe2b4733e655")
    }

    @Test func theWakeupIsASignedJSONPostWithItsOwnTimeout() throws {
        let request = try #require(signed(Self.message()))
        #expect(request.url == "https://backend.example/sipwake")
        #expect(request.method == "POST")
        #expect(request.timeout == 4)
        #expect(Self.header(request, "Content-Type") == "application/json")
        #expect(Self.header(request, "X-Sipwake-Signature")
            == WebhookSignature.header(body: request.body, timestamp: 1_700_000_000, secrets: [Self.current]))
        let object = try #require(try JSONSerialization.jsonObject(with: request.body) as? [String: Any])
        #expect(object["type"] as? String == "call.mobile_push_wakeup")
        #expect(object["account_id"] as? String == "example.com")
        #expect(object["created_at"] as? String == "2026-04-10T14:30:05Z")
        #expect((object["id"] as? String)?.hasPrefix("evt_") == true)
        #expect(Self.header(request, "X-Sipwake-Event-Id") == object["id"] as? String)
        let data = try #require(object["data"] as? [String: Any])
        #expect(data["call_id"] as? String == "pair-7")
        #expect(data["user_id"] as? String == "alice")
        #expect(data["from_number"] as? String == "+14155551234")
        #expect(data["from_name"] as? String == "John Smith")
        #expect(data["to_number"] as? String == "+14155559876")
        #expect(data["ringing_at"] as? String == "2026-04-10T14:30:00Z")
        #expect(data["outcome"] == nil)
    }

    @Test func aRetryCarriesTheSameEventIDAndAFreshSignature() throws {
        let first = try #require(signed(Self.message(), at: Date(timeIntervalSince1970: 1_700_000_000)))
        let retry = try #require(signed(Self.message(), at: Date(timeIntervalSince1970: 1_700_000_005)))
        #expect(Self.header(first, "X-Sipwake-Event-Id") == Self.header(retry, "X-Sipwake-Event-Id"))
        #expect(Self.header(first, "X-Sipwake-Signature") != Self.header(retry, "X-Sipwake-Signature"))
        let missed = try #require(signed(Self.message(.missed, outcome: .noAnswer)))
        #expect(Self.header(missed, "X-Sipwake-Event-Id") != Self.header(first, "X-Sipwake-Event-Id"))
    }

    @Test func endEventsNameHowTheCallEnded() throws {
        for (event, outcome, type) in [(PushEvent.missed, CallOutcome.noAnswer, "call.missed"),
                                       (.missed, .cancelled, "call.cancelled"),
                                       (.answeredElsewhere, .answered, "call.answered_elsewhere")] {
            let request = try #require(signed(Self.message(event, outcome: outcome)))
            let object = try #require(try JSONSerialization.jsonObject(with: request.body) as? [String: Any])
            #expect(object["type"] as? String == type)
            #expect((object["data"] as? [String: Any])?["outcome"] as? String == outcome.rawValue)
        }
    }

    @Test func aDomainOverrideSignsWithBothSecretsWhileTheyRotate() throws {
        let request = try #require(signed(Self.message(account: "rotating.example")))
        #expect(request.url == "https://rotating.example/hook")
        let signature = try #require(Self.header(request, "X-Sipwake-Signature"))
        #expect(signature.components(separatedBy: "v1=").count == 3)
        guard case .refuse(let result) = provider.request(for: Self.message(account: "quiet.example"), at: Date()) else {
            Issue.record("a domain whose webhook is off gets no request")
            return
        }
        #expect(result.kind == .failed)
    }

    @Test func aBindingRefreshIsNeverPostedToTheBackend() {
        // Even to an account whose webhook is on: the backend's events are about calls.
        #expect(provider.request(for: Self.message(.bindingRefresh), at: Date())
            == .refuse(.failed(status: nil, detail: "no binding-refresh push through the webhook")))
        #expect(WebhookPayload(Self.message(.bindingRefresh), account: "example.com") == nil)
    }

    @Test func theBackendsAnswersFollowTheContract() {
        func classify(_ status: Int, _ body: String = "") -> PushResult {
            provider.classify(.response(status: status, headers: [], body: Data(body.utf8)), to: PushHTTPRequest(url: ""))
        }
        #expect(classify(200).kind == .delivered)
        #expect(classify(204).kind == .delivered)
        #expect(classify(404).kind == .tokenGone)
        #expect(classify(404, "Not found").detail == "no device for this user: Not found")
        #expect(classify(500).kind == .retryable)
        #expect(classify(503).kind == .retryable)
        #expect(classify(429).kind == .retryable)
        #expect(classify(401, "Invalid signature").kind == .failed)
        #expect(classify(400).kind == .failed)
        let busy = provider.classify(.response(status: 503, headers: [PushHTTPHeader("Retry-After", "2")], body: Data()),
                                     to: PushHTTPRequest(url: ""))
        #expect(busy.kind == .retryable)
        #expect(busy.retryAfter == 2)
        let timeout = provider.classify(.transportFailure(PushTransportFailure(reason: .timeout, message: "4000 ms")),
                                        to: PushHTTPRequest(url: ""))
        #expect(timeout.kind == .retryable)
        #expect(timeout.detail == "timeout: 4000 ms")
        let setup = provider.classify(.transportFailure(PushTransportFailure(reason: .setup, message: "bad URL")),
                                      to: PushHTTPRequest(url: ""))
        #expect(setup.kind == .failed)
    }

    @Test func theWebhookIsReachedOnlyByItsOwnProvider() {
        let providers = PushProviders([AcrobitsProvider(settings: AcrobitsSettings()), provider])
        #expect(providers.provider(for: Self.message())?.name == "webhook")
        let withoutWebhook = PushProviders([AcrobitsProvider(settings: AcrobitsSettings())])
        #expect(withoutWebhook.provider(for: Self.message()) == nil, "never the gateway")
    }

    @Test func secretsAreNeverDescribed() {
        #expect(!"\(Self.settings)".contains(Self.current))
        #expect(!"\(Self.settings.global!)".contains(Self.current))
    }
}
