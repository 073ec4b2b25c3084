import Foundation
import Metrics
import Model
import Ports
import Push
import PushSink
import Testing

/// What the transport does with a provider's request and answer, over real
/// HTTP to a PushSink: where the request is built, which method and headers
/// reach the gateway, which answer headers reach the provider.
@Suite struct PushRequestTransportTests {
    /// A client with the Acrobits gateway (with `extraHeaders`) and `probe`, pointed at a sink.
    func withClient(probe: (String) -> ProbeProvider, extraHeaders: [PushHTTPHeader] = [],
                    _ body: (PushSink, PushClient, ProbeProvider) async throws -> Void) async throws {
        let (sink, sinkService, port) = try await PushFixtures.startSink()
        let base = "http://127.0.0.1:\(port)/pnm2"
        let provider = probe("\(base)/probe")
        let client = PushClient(
            settings: PushClientSettings(),
            providers: PushProviders([
                AcrobitsProvider(settings: AcrobitsSettings(gatewayURL: "\(base)/send", extraHeaders: extraHeaders)),
                provider,
            ]),
            logger: PushFixtures.logger, metrics: NOOPMetricsHandler.instance)
        try await PushFixtures.running(client, then: sinkService) { try await body(sink, client, provider) }
    }

    func probeMessage(token: String = "token-probe") -> PushMessage {
        var message = PushFixtures.incomingCall(token: token)
        message.provider = "probe"
        return message
    }

    /// Encoding a request is work the SIP loop, which calls send, must not do.
    @Test func theRequestIsBuiltOnThePushThread() async throws {
        try await withClient(probe: { ProbeProvider(url: $0) }) { _, client, probe in
            let result = await PushFixtures.send(probeMessage(), with: client)
            #expect(result.kind == .delivered)
            #expect(probe.log.threads == ["push-http"])
        }
    }

    @Test func theProvidersHeadersAndMethodReachTheGateway() async throws {
        let extra = [PushHTTPHeader("Authorization", "Bearer lab-key"), PushHTTPHeader("X-Tenant", "north")]
        try await withClient(probe: {
            ProbeProvider(url: $0, method: "PUT", headers: [PushHTTPHeader("X-Probe", "1"),
                                                            PushHTTPHeader("Content-Type", "application/json; charset=utf-8")])
        }, extraHeaders: extra) { sink, client, _ in
            let acrobits = await PushFixtures.send(PushFixtures.incomingCall(), with: client)
            let probe = await PushFixtures.send(probeMessage(), with: client)
            #expect([acrobits.kind, probe.kind] == [.delivered, .delivered])

            let records = sink.records()
            #expect(records.map(\.method) == ["POST", "PUT"])
            #expect(records.map(\.path) == ["/pnm2/send", "/pnm2/probe"])
            let gateway = try #require(records.first?.headers)
            #expect(gateway["content-type"] == "application/json")
            #expect(gateway["accept"] == "application/json")
            #expect(gateway["authorization"] == "Bearer lab-key")
            #expect(gateway["x-tenant"] == "north")
            #expect(gateway["user-agent"] == "sipwake")
            let probed = try #require(records.last?.headers)
            #expect(probed["x-probe"] == "1")
            #expect(probed["content-type"] == "application/json; charset=utf-8")
            #expect(records.last?.body == ["DeviceToken": "token-probe"])
        }
    }

    @Test func theAnswersHeadersReachTheProvider() async throws {
        try await withClient(probe: { ProbeProvider(url: $0) }) { _, client, probe in
            _ = await PushFixtures.send(probeMessage(), with: client)
            let headers = try #require(probe.log.answerHeaders.first)
            func value(_ name: String) -> String? {
                headers.first { $0.name.lowercased() == name }?.value
            }
            #expect(value("content-type") == "application/json")
            #expect(value("server") == "sipwake-push-sink")
            #expect(value("content-length") == "\(#"{"status":"ok"}"#.utf8.count)")
            #expect(!headers.contains { $0.name.hasPrefix("HTTP/") || $0.name.isEmpty })
        }
    }
}
