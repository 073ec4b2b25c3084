import Logging
import ServiceLifecycle

/// A service running in its own service group for the length of a test;
/// ``stop()`` shuts it down gracefully and waits for its `run()` to return.
struct RunningService: Sendable {
    let group: ServiceGroup
    let task: Task<Void, any Error>

    static func start(_ service: any Service, logger: Logger) -> RunningService {
        let group = ServiceGroup(configuration: .init(services: [.init(service: service)], logger: logger))
        return RunningService(group: group, task: Task { try await group.run() })
    }

    func stop() async throws {
        await group.triggerGracefulShutdown()
        try await task.value
    }
}
