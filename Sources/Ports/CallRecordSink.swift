import Model

/// Where the call proxy hands each new version of a call's record. Saving is
/// fire-and-forget: it never waits for the disk; versions are written in
/// batches, and a version saved while an older one of the same call still
/// waits replaces it.
public protocol CallRecordSink: Sendable {
    /// Starts writing. Records saved before wait.
    func start()
    /// Returns at once, without I/O.
    func save(_ record: CallRecord)
    /// The BYE `bye` of an answered call whose call is no longer in memory:
    /// its stored record gets the hang-up (`CallRecord.hangingUp`), after
    /// every version saved before. Returns at once, without I/O.
    func hangUp(_ bye: CallHangUp)
    /// Returns once every record saved before the call has been written (or failed).
    func flush()
    /// Stops accepting, writes what is pending, and returns when done.
    func shutdown()
}
