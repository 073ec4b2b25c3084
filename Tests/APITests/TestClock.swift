import Foundation
import Synchronization

/// A clock the tests move by hand, handed to the routers as their `clock`
/// (by default it starts at the real time). The reporter's replay tracker
/// starts at the routes' first reading and refuses nonces stamped at or
/// before it: move the clock on before a Digest exchange.
final class TestClock: Sendable {
    private let current: Mutex<Date>

    init(start: Date = Date()) {
        current = Mutex(start)
    }

    var now: Date { current.withLock { $0 } }

    func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    /// The closure the routers take.
    var clock: @Sendable () -> Date { { self.now } }
}
