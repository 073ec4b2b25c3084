import Foundation
import Synchronization

/// The current credential of one app, shared by its provider (which reads it
/// on the push thread for every push) and the ``PushCredentialService``
/// (which puts a new one in). Thread-safe.
///
/// A provider whose push was refused for an expired credential calls
/// ``invalidate(ifToken:)`` with the token that push carried: only the first
/// of many pushes refused at once drops the credential and wakes the service,
/// so a burst of refusals makes one renewal.
public final class PushCredentialStore: Sendable {
    struct State {
        var credential: PushCredential?
        /// Set by an invalidation the service has not seen yet.
        var invalidated = false
        /// The service, while it waits for an invalidation.
        var waiter: CheckedContinuation<Void, Never>?
        /// Set when a reload dropped the app or changed its key: the service
        /// stops keeping this credential.
        var retired = false
    }

    private let state = Mutex(State())

    public init() {}

    /// The credential's text, nil when there is none or it has expired at `now`.
    public func current(at now: Date) -> String? {
        state.withLock { state in
            guard let credential = state.credential, now < credential.expiresAt else { return nil }
            return credential.token
        }
    }

    /// The credential, expired or not.
    public var credential: PushCredential? {
        state.withLock { $0.credential }
    }

    /// Puts in a newly made credential; it answers any invalidation the
    /// service has not seen yet.
    public func set(_ credential: PushCredential) {
        state.withLock { state in
            state.credential = credential
            state.invalidated = false
        }
    }

    /// True once ``retire()`` was called.
    public var isRetired: Bool {
        state.withLock { $0.retired }
    }

    /// Tells the service to stop keeping this credential (a reload dropped
    /// its app or changed its key). Pushes already holding it still read it.
    public func retire() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.retired = true
            state.invalidated = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Drops the credential and asks the service for a new one, but only when
    /// the credential is still `token`; true when it was dropped.
    @discardableResult
    public func invalidate(ifToken token: String) -> Bool {
        let (dropped, waiter) = state.withLock { state -> (Bool, CheckedContinuation<Void, Never>?) in
            guard let credential = state.credential, credential.token == token else { return (false, nil) }
            state.credential = nil
            guard let waiter = state.waiter else {
                state.invalidated = true
                return (true, nil)
            }
            state.waiter = nil
            return (true, waiter)
        }
        waiter?.resume()
        return dropped
    }

    /// Returns at the next invalidation (at once when one came since the last
    /// call), or when the task is cancelled. One waiter at a time: the service.
    func waitForInvalidation() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if Task.isCancelled { return true }
                    if state.invalidated {
                        state.invalidated = false
                        return true
                    }
                    state.waiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
    }
}
