import Foundation
import Logging
import PushSink
import ServiceLifecycle

/// The push gateway of an end-to-end test: a `PushSink` in the test process,
/// on a free loopback port, that records every push and answers as its rules
/// say (200, token gone, 500, slow).
final class LabPushGateway: Sendable {
    let sink: PushSink
    let port: Int
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    private init(sink: PushSink, port: Int, group: ServiceGroup, task: Task<Void, any Error>) {
        self.sink = sink
        self.port = port
        self.group = group
        self.task = task
    }

    static func start() async throws -> LabPushGateway {
        let logger = Logger(label: "lab-push-gateway")
        let sink = PushSink(settings: PushSinkSettings(port: 0), logger: logger)
        let group = ServiceGroup(configuration: .init(services: [.init(service: sink)], logger: logger))
        let task = Task { try await group.run() }
        guard let port = await sink.boundPort else {
            await group.triggerGracefulShutdown()
            throw NSError(domain: "LabPushGateway", code: 1, userInfo: [NSLocalizedDescriptionKey: "push sink did not listen"])
        }
        return LabPushGateway(sink: sink, port: port, group: group, task: task)
    }

    var url: String { "http://127.0.0.1:\(port)/pnm2/send" }

    func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await task.value
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
