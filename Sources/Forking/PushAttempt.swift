import Model

/// One push the state machine asked for, until its provider answers.
struct PushAttempt: Sendable, Equatable {
    let target: PushTarget
    let event: PushEvent
    /// 1 for the first try, 2 for the retry.
    let attempt: Int
    /// Index of this attempt in the call record's pushes.
    let recordIndex: Int
    var result: PushResult?
}
