import Foundation
import Logging
import PushSink
import ServiceLifecycle

/// A `PushSink` running in the test process on a free loopback port, for the
/// labs that play a push service or a customer's backend to a real
/// `sipwake serve`: started, read as JSON records, and stopped.
final class LabSink: Sendable {
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

    /// A sink with `settings` (port 0: a free one), logging as `label`.
    static func start(_ settings: PushSinkSettings, label: String) async throws -> LabSink {
        let logger = Logger(label: label)
        let sink = PushSink(settings: settings, logger: logger)
        let group = ServiceGroup(configuration: .init(services: [.init(service: sink)], logger: logger))
        let task = Task { try await group.run() }
        guard let port = await sink.boundPort else {
            await group.triggerGracefulShutdown()
            throw NSError(domain: label, code: 1, userInfo: [NSLocalizedDescriptionKey: "push sink did not listen"])
        }
        return LabSink(sink: sink, port: port, group: group, task: task)
    }

    /// Shuts the sink down; a client that keeps its connection open past
    /// two seconds is cut off.
    func stop() async {
        await group.triggerGracefulShutdown()
        let task = self.task
        let watchdog = Task {
            try await Task.sleep(for: .seconds(2))
            task.cancel()
        }
        _ = try? await task.value
        watchdog.cancel()
    }

    /// Every record of `provider` (and `token`, when given), as JSON objects.
    func records(_ provider: String, token: String? = nil) -> [[String: Any]] {
        let encoder = PushSinkRecord.jsonEncoder()
        return sink.records().filter { $0.provider == provider && (token == nil || $0.token == token) }.compactMap {
            guard let data = try? encoder.encode($0) else { return nil }
            return try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        }
    }

    /// Waits until `count` records of `provider` (for `token`) have arrived.
    func waitForRecords(_ provider: String, token: String? = nil, count: Int = 1,
                        timeout: Duration = .seconds(10)) async -> [[String: Any]] {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let found = records(provider, token: token)
            if found.count >= count { return found }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return records(provider, token: token)
    }
}
