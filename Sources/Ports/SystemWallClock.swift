import Foundation

/// The machine's clock.
public struct SystemWallClock: WallClock {
    public init() {}

    public func now() -> Date { Date() }
}
