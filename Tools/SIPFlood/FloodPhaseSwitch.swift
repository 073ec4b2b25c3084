import Synchronization

/// The current phase, set by the run's main thread and read by the probe.
public final class FloodPhaseSwitch: Sendable {
    private let value = Atomic<Int>(FloodPhase.baseline.rawValue)

    public init() {}

    public var current: FloodPhase { FloodPhase(rawValue: value.load(ordering: .acquiring)) ?? .after }

    public func set(_ phase: FloodPhase) { value.store(phase.rawValue, ordering: .releasing) }
}
