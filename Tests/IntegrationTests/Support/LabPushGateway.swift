import Foundation
import PushSink

/// The push gateway of an end-to-end test: a `PushSink` in the test process,
/// on a free loopback port, that records every push and answers as its rules
/// say (200, token gone, 500, slow).
final class LabPushGateway: Sendable {
    let lab: LabSink
    var sink: PushSink { lab.sink }
    var port: Int { lab.port }

    private init(lab: LabSink) {
        self.lab = lab
    }

    static func start() async throws -> LabPushGateway {
        LabPushGateway(lab: try await LabSink.start(PushSinkSettings(port: 0), label: "lab-push-gateway"))
    }

    var url: String { "http://127.0.0.1:\(port)/pnm2/send" }

    func stop() async {
        await lab.stop()
    }

    /// The pushes received so far with this verb.
    func pushes(_ verb: String) -> [[String: String]] {
        sink.records().map(\.body).filter { $0["verb"] == verb }
    }

    /// Waits until a push with this verb (and token, when given) arrives.
    func waitForPush(_ verb: String, token: String? = nil, timeout: Duration = .seconds(10)) async -> [String: String]? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let push = pushes(verb).first(where: { token == nil || $0["DeviceToken"] == token }) { return push }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }
}
