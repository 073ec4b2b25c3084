import Foundation
import Logging
import Metrics
import Model
import Ports
import Prometheus
import Push
import Synchronization
import Testing

/// Direct pushes end to end: the push system (client and credential
/// service) against a local plain-HTTP stand-in for APNs, FCM and Google's
/// token endpoint.
@Suite struct PushSystemTests {
    let registry = PrometheusCollectorRegistry()

    /// Runs `body` with a running push system for `apps`.
    func withSystem(_ apps: [PushAppSettings], acrobits: AcrobitsSettings? = nil,
                    _ body: (PushSystem) async throws -> Void) async throws {
        let system = try PushSystem(settings: PushClientSettings(), acrobits: acrobits, apps: apps,
                                    logger: PushFixtures.logger, metrics: PrometheusMetricsFactory(registry: registry),
                                    credentialTiming: PushCredentialTiming(minimumRenewalGap: 0))
        let services = system.services.map { RunningService.start($0, logger: PushFixtures.logger) }
        do {
            try await body(system)
        } catch {
            for service in services.reversed() { try? await service.stop() }
            throw error
        }
        for service in services.reversed() { try await service.stop() }
    }

    func count(_ provider: String, _ result: String) -> String? {
        let name = #"sipwake_push_results_total{provider="\#(provider)",result="\#(result)"}"#
        return registry.emitToString().split(separator: "\n").first { $0.hasPrefix(name + " ") }
            .map { String($0.dropFirst(name.count + 1)) }
    }

    @Test func anAPNsAppsPushCarriesAFreshProviderTokenAndIsRenewedWhenExpired() async throws {
        let answered = AnswerCount()
        let server = LabHTTPServer { _ in
            let n = answered.next()
            return n == 2 ? .init(status: 403, body: #"{"reason":"ExpiredProviderToken"}"#)
                : .init(status: 200, headers: [("apns-id", "x")], body: "")
        }
        let base = try await server.start()
        defer { Task { await server.stop() } }
        let key = DirectPushFixtures.apnsKeyPEM()
        let settings = APNsSettings(appID: "com.example.phone", signingKeyPEM: key.pem, keyID: "ABC123DEFG",
                                    teamID: "TEAM123456", bundleID: "com.example.phone", url: base, format: .incomingCallEvent)
        try await withSystem([.apns(settings)]) { system in
            // The tuple names the gateway; the listed app's provider wins.
            var message = DirectPushFixtures.message(provider: "acrobits")
            message.sentAt = Date()
            #expect(await PushFixtures.send(message, with: system.client) == .delivered(status: 200))
            let expired = await PushFixtures.send(message, with: system.client)
            #expect(expired == .retryable(status: 403, detail: "ExpiredProviderToken: provider token renewed"))
            #expect(await PushFixtures.send(message, with: system.client) == .delivered(status: 200))
        }
        let records = server.records
        #expect(records.map(\.path) == Array(repeating: "/3/device/\(DirectPushFixtures.apnsToken)", count: 3))
        #expect(records.first?.headers["apns-topic"] == "com.example.phone.voip")
        #expect(records.first?.headers["apns-push-type"] == "voip")
        let bearers = records.map { $0.headers["authorization"] ?? "" }
        #expect(bearers.allSatisfy { $0.hasPrefix("bearer ey") })
        #expect(bearers[0] == bearers[1])
        #expect(bearers[2] != bearers[1])
        #expect(count("apns", "delivered") == "2")
        #expect(count("apns", "retryable") == "1")
    }

    @Test func anFCMAppsPushGetsItsAccessTokenFirst() async throws {
        let server = LabHTTPServer { request in
            if request.path == "/token" {
                return .init(status: 200, body: #"{"access_token":"ya29.lab","expires_in":3599,"token_type":"Bearer"}"#)
            }
            return .init(status: 404, body: FCMProviderTests.error(404, "NOT_FOUND", "Requested entity was not found.",
                                                                    errorCode: "UNREGISTERED"))
        }
        let base = try await server.start()
        defer { Task { await server.stop() } }
        let account = try FCMFixtures.account(tokenURI: "\(base)/token")
        let settings = FCMSettings(appID: "com.example.droid", serviceAccount: account, url: base, format: .incomingCallEvent)
        try await withSystem([.fcm(settings)]) { system in
            var message = DirectPushFixtures.message(provider: "fcm", appID: "com.example.droid", token: "fcm-token-1")
            message.sentAt = Date()
            let result = await PushFixtures.send(message, with: system.client)
            #expect(result == .tokenGone(status: 404, detail: "UNREGISTERED: Requested entity was not found."))
        }
        let records = server.records
        #expect(records.map(\.path) == ["/token", "/v1/projects/phone-project/messages:send"])
        #expect(records.last?.headers["authorization"] == "Bearer ya29.lab")
        let body = try JSONDecoder().decode([String: [String: PushJSONValue]].self, from: try #require(records.last?.body))
        #expect(body["message"]?["token"] == .string("fcm-token-1"))
        #expect(count("fcm", "token-gone") == "1")
    }

    @Test func aBadSigningKeyStopsTheWiring() {
        let settings = APNsSettings(appID: "a", signingKeyPEM: "nope", keyID: "k", teamID: "t", bundleID: "b")
        #expect(throws: APNsSigningKeyError.self) {
            try PushSystem(settings: PushClientSettings(), acrobits: nil, apps: [.apns(settings)],
                           logger: PushFixtures.logger, metrics: NOOPMetricsHandler.instance)
        }
    }
}

/// How many requests a stand-in server answered.
final class AnswerCount: Sendable {
    private let count = Mutex(0)

    /// Counts one more; returns the count.
    func next() -> Int {
        count.withLock { count in
            count += 1
            return count
        }
    }
}
