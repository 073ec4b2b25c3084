import Synchronization

/// Set once by the thread that runs a tool's main loop; read by its background
/// threads between socket waits.
public final class StopFlag: Sendable {
    private let flag = Atomic<Bool>(false)

    public init() {}

    public func stop() { flag.store(true, ordering: .releasing) }

    public var isStopped: Bool { flag.load(ordering: .acquiring) }
}
