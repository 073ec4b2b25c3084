import Foundation
import Push
import Synchronization

/// A credential maker for the service tests: it fails its first `failures`
/// calls, then makes `token-1`, `token-2`… that the service should renew
/// `renewAfter` seconds after they are made; it notes when it was called.
final class ScriptedCredentialMaker: PushCredentialMaker {
    struct Failure: Error, CustomStringConvertible {
        var description: String { "lab refused" }
    }

    let provider = "lab"
    let appID = "com.example.lab"
    private let renewAfter: TimeInterval
    private let state: Mutex<(failuresLeft: Int, calls: [Date], made: Int)>

    init(failures: Int = 0, renewAfter: TimeInterval = 3600) {
        self.renewAfter = renewAfter
        state = Mutex((failures, [], 0))
    }

    /// When the service asked for a credential, successful or not.
    var calls: [Date] { state.withLock { $0.calls } }

    func makeCredential(at now: Date) async throws -> PushCredential {
        let made = try state.withLock { state -> Int in
            state.calls.append(Date())
            if state.failuresLeft > 0 {
                state.failuresLeft -= 1
                throw Failure()
            }
            state.made += 1
            return state.made
        }
        return PushCredential(token: "token-\(made)", issuedAt: now, expiresAt: now.addingTimeInterval(3600))
    }

    func renewalTime(of credential: PushCredential) -> Date {
        credential.issuedAt.addingTimeInterval(renewAfter)
    }
}
