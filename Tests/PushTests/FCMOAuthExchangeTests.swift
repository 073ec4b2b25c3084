import Foundation
import Logging
import Metrics
import Model
import Ports
import Push
import TestSupport
import Testing

/// The FCM access token exchange over real HTTP, through the push client's
/// libcurl thread, against a local stand-in for Google's token endpoint.
@Suite struct FCMOAuthExchangeTests {
    let now = Date(timeIntervalSince1970: 1_700_000_000)

    /// Runs `body` with a running push client and a token endpoint answering with `reply`.
    func withEndpoint(_ reply: @escaping @Sendable (LabHTTPServer.Recorded) -> LabHTTPServer.Reply,
                      _ body: (LabHTTPServer, String, PushClient) async throws -> Void) async throws {
        let server = LabHTTPServer(reply)
        let base = try await server.start()
        let client = PushClient(settings: PushClientSettings(), providers: PushProviders([]),
                                logger: PushFixtures.logger, metrics: NOOPMetricsHandler.instance)
        let service = RunningService.start(client, logger: PushFixtures.logger)
        do {
            try await body(server, base, client)
        } catch {
            try? await service.stop()
            await server.stop()
            throw error
        }
        try await service.stop()
        await server.stop()
    }

    @Test func theAssertionIsTradedForAnAccessToken() async throws {
        try await withEndpoint({ _ in
            .init(status: 200, body: #"{"access_token":"ya29.lab","expires_in":3599,"token_type":"Bearer"}"#)
        }) { server, base, client in
            let account = try FCMFixtures.account(tokenURI: "\(base)/token")
            let maker = FCMTokenMaker(appID: "com.example.phone", account: account, http: client)
            let credential = try await maker.makeCredential(at: now)
            #expect(credential == PushCredential(token: "ya29.lab", issuedAt: now, expiresAt: now.addingTimeInterval(3599)))
            #expect(maker.renewalTime(of: credential) == now.addingTimeInterval(3299))
            let record = try #require(server.records.first)
            #expect(record.method == "POST")
            #expect(record.path == "/token")
            #expect(record.headers["content-type"] == "application/x-www-form-urlencoded")
            #expect(record.headers["user-agent"] == "sipwake")
            let form = DirectPushFixtures.text(record.body)
            #expect(form.hasPrefix("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=ey"))
        }
    }

    @Test func aRefusalSaysGooglesErrorNeverTheAssertion() async throws {
        try await withEndpoint({ _ in
            .init(status: 400, body: #"{"error":"invalid_grant","error_description":"Invalid JWT Signature."}"#)
        }) { server, base, client in
            let account = try FCMFixtures.account(tokenURI: "\(base)/token")
            let maker = FCMTokenMaker(appID: "com.example.phone", account: account, http: client)
            await #expect {
                try await maker.makeCredential(at: now)
            } throws: { error in
                "\(error)" == "OAuth token endpoint refused (HTTP 400): invalid_grant (Invalid JWT Signature.)"
            }
            #expect(server.records.count == 1)
        }
    }

    @Test func anUnreachableEndpointIsAnError() async throws {
        try await withEndpoint({ _ in .init(status: 200, body: "{}") }) { _, _, client in
            let account = try FCMFixtures.account(tokenURI: "http://127.0.0.1:1/token")
            let maker = FCMTokenMaker(appID: "com.example.phone", account: account, http: client)
            await #expect(throws: FCMOAuthError.self) { try await maker.makeCredential(at: now) }
        }
    }

    @Test func performFailsOnceTheClientStopped() async throws {
        let client = PushClient(settings: PushClientSettings(), providers: PushProviders([]),
                                logger: PushFixtures.logger, metrics: NOOPMetricsHandler.instance)
        let service = RunningService.start(client, logger: PushFixtures.logger)
        try await service.stop()
        let answer = await client.perform(PushHTTPRequest(url: "http://127.0.0.1:1/"))
        #expect(answer == .transportFailure(PushTransportFailure(reason: .setup, message: "push client stopped")))
    }
}
