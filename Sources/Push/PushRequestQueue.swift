import Synchronization

/// The hand-over between the callers of ``PushClient/send(_:completion:)``
/// (and ``PushClient/perform(_:)``) and the HTTP thread: work waiting to start, the client's phase, and the
/// multi handle to wake while the thread is polling.
final class PushRequestQueue: Sendable {
    enum Phase {
        /// `run()` has not been called: pushes wait for it.
        case idle
        /// The HTTP thread is sending.
        case running
        /// Shutdown asked: pushes already taken finish, new ones are refused.
        case stopping
        /// The HTTP thread is gone.
        case stopped
    }

    struct State: ~Copyable {
        var phase = Phase.idle
        var pending: [PendingWork] = []
        /// Set while the HTTP thread's multi handle exists.
        var wakeup: PushThreadWakeup?
    }

    private let state = Mutex(State())

    /// Queues `work` and wakes the HTTP thread; false once the client is stopping or stopped.
    func enqueue(_ work: PendingWork) -> Bool {
        state.withLock { state in
            switch state.phase {
            case .idle, .running:
                state.pending.append(work)
                state.wakeup?.wake()
                return true
            case .stopping, .stopped:
                return false
            }
        }
    }

    /// Marks the start of `run()`; false when it already ran.
    func begin() -> Bool {
        state.withLock { state in
            guard case .idle = state.phase else { return false }
            state.phase = .running
            return true
        }
    }

    /// The HTTP thread's multi handle exists from now on, until ``markStopped()``.
    func attach(_ wakeup: PushThreadWakeup) {
        state.withLock { $0.wakeup = wakeup }
    }

    /// Refuses new pushes and wakes the HTTP thread so it can finish.
    func requestStop() {
        state.withLock { state in
            switch state.phase {
            case .idle, .running: state.phase = .stopping
            case .stopping, .stopped: break
            }
            state.wakeup?.wake()
        }
    }

    /// Takes all waiting work, and says whether shutdown was asked.
    func take() -> (work: [PendingWork], stopping: Bool) {
        state.withLock { state in
            let work = state.pending
            state.pending.removeAll()
            if case .stopping = state.phase { return (work, true) }
            return (work, false)
        }
    }

    /// The HTTP thread is about to free its multi handle; anything still
    /// waiting is handed back to be failed.
    func markStopped() -> [PendingWork] {
        state.withLock { state in
            state.phase = .stopped
            state.wakeup = nil
            let left = state.pending
            state.pending.removeAll()
            return left
        }
    }
}
