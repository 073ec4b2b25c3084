import Foundation
import Logging
import Metrics
import Model
import Ports
import Push
import PushSink
import Testing

/// PushClient with two providers against a real PushSink over loopback HTTP.
@Suite struct PushClientProviderTests {
    @Test func eachPushGoesWhereItsProviderSaysAndIsReadByIt() async throws {
        let (sink, sinkService, port) = try await PushFixtures.startSink()
        let base = "http://127.0.0.1:\(port)/pnm2"
        let client = PushClient(
            settings: PushClientSettings(),
            providers: PushProviders([
                AcrobitsProvider(settings: AcrobitsSettings(gatewayURL: "\(base)/send")),
                LabProvider(url: "\(base)/lab"),
            ]),
            logger: PushFixtures.logger, metrics: NOOPMetricsHandler.instance)
        let service = RunningService.start(client, logger: PushFixtures.logger)
        let acrobits = await PushFixtures.send(PushFixtures.incomingCall(token: "token-a"), with: client)
        var labMessage = PushFixtures.incomingCall(token: "token-lab")
        labMessage.provider = "lab"
        let lab = await PushFixtures.send(labMessage, with: client)
        try await service.stop()
        try await sinkService.stop()

        #expect(acrobits.kind == .delivered)
        #expect(lab == PushResult(kind: .failed, httpStatus: 200, detail: "lab answer"))
        let records = sink.records()
        #expect(records.map(\.path) == ["/pnm2/send", "/pnm2/lab"])
        #expect(records.last?.body == ["DeviceToken": "token-lab", "event": "incoming-call"])
        #expect(records.first?.body["verb"] == "NotifyIncomingCall")
    }
}
