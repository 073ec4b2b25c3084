import Foundation

/// The push sink's mutable state, behind its lock.
struct PushSinkState: ~Copyable {
    var records: [PushSinkRecord] = []
    var rules: [String: PushSinkRule]
    var defaultRule: PushSinkRule
    var output: FileHandle?
    var listening = PushSinkListening.waiting([])
    /// Set on graceful shutdown: slow answers stop waiting.
    var stopping = false
}
