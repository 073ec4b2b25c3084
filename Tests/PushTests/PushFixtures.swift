import Foundation
import Logging
import Metrics
import Model
import Ports
import Push
import PushSink

/// Notifications and a running sink and client, as the tests use them.
enum PushFixtures {
    static let logger = Logger(label: "push-test")
    static let apnsToken = "8c7e52d3a4f1b6e09d2c3b4a5f6e7d8c9b0a1f2e3d4c5b6a7980f1e2d3c4b5a6"
    static let selector = "12869E0E6E553673C54F29105A0647204C416A2A:7C3A0D14"

    static func incomingCall(token: String = apnsToken, id: String = "a84b4c76e66710@pbx.example.com") -> PushMessage {
        PushMessage(provider: AcrobitsProvider.name, event: .incomingCall, tupleID: 7,
                    appID: "com.acrobits.softphone.voip", deviceToken: token, selector: selector, pairingID: id,
                    callerDisplayName: "Alice Smith", callerUser: "alice", callerDomain: "pbx.example.com",
                    media: "audio", badge: 1, sound: "default", sentAt: Date(timeIntervalSince1970: 1_700_000_000))
    }

    /// A client whose only provider is the Acrobits gateway at `gatewayURL`.
    static func client(gatewayURL: String, timeout: Double = 5, logger: Logger = logger,
                       metrics: any MetricsFactory = NOOPMetricsHandler.instance) -> PushClient {
        PushClient(settings: PushClientSettings(timeout: timeout),
                   providers: PushProviders([AcrobitsProvider(settings: AcrobitsSettings(gatewayURL: gatewayURL))]),
                   logger: logger, metrics: metrics)
    }

    /// The gateway fields of ``incomingCall(token:id:)`` with its defaults, written out.
    static let incomingCallFields = [
        "verb": "NotifyIncomingCall",
        "AppId": "com.acrobits.softphone.voip",
        "DeviceToken": PushFixtures.apnsToken,
        "Selector": PushFixtures.selector,
        "Id": "a84b4c76e66710@pbx.example.com",
        "UserDisplayName": "Alice Smith",
        "UserName": "alice",
        "Domain": "pbx.example.com",
        "Media": "audio",
        "Badge": "1",
        "Sound": "default",
        "Timestamp": "1700000000",
    ]

    /// A sink on a free loopback port and a client pointed at its send path.
    static func withSinkAndClient(
        sink sinkSettings: PushSinkSettings = PushSinkSettings(port: 0),
        timeout: Double = 5,
        clientLogger: Logger = logger,
        metrics: any MetricsFactory = NOOPMetricsHandler.instance,
        _ body: (PushSink, PushClient, Int) async throws -> Void
    ) async throws {
        let (sink, sinkService, port) = try await startSink(sinkSettings)
        let client = client(gatewayURL: "http://127.0.0.1:\(port)\(sinkSettings.path)", timeout: timeout,
                            logger: clientLogger, metrics: metrics)
        try await running(client, then: sinkService) { try await body(sink, client, port) }
    }

    /// Runs `body` while `client` runs, then stops the client and `sinkService`, whatever `body` did.
    static func running(_ client: PushClient, then sinkService: RunningService,
                        _ body: () async throws -> Void) async throws {
        let clientService = RunningService.start(client, logger: logger)
        do {
            try await body()
        } catch {
            try? await clientService.stop()
            try? await sinkService.stop()
            throw error
        }
        try await clientService.stop()
        try await sinkService.stop()
    }

    /// A sink running on loopback, and its port.
    static func startSink(_ settings: PushSinkSettings = PushSinkSettings(port: 0)) async throws
        -> (PushSink, RunningService, Int)
    {
        let sink = PushSink(settings: settings, logger: logger)
        let service = RunningService.start(sink, logger: logger)
        guard let port = await sink.boundPort else {
            try await service.stop()
            throw PushSinkError("push sink did not listen")
        }
        return (sink, service, port)
    }

    /// Sends `message` and waits for its result.
    static func send(_ message: PushMessage, with client: PushClient) async -> PushResult {
        await withCheckedContinuation { continuation in
            client.send(message) { continuation.resume(returning: $0) }
        }
    }
}
