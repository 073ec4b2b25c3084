import Foundation

/// The time of day, as the core reads it: call records, binding expiry,
/// token freshness. Injected, so tests can move time without waiting.
public protocol WallClock: Sendable {
    func now() -> Date
}
