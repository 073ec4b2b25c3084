import Model

/// The 200 answer of the reporter endpoints: `{"status":"ok","created":…,
/// "tuple":{…}}` for a report, `{"status":"ok","removed":…}` for a removal.
struct ReporterAnswerJSON: Encodable, Sendable {
    let status = "ok"
    /// Reports only: whether the tuple is new.
    let created: Bool?
    /// Reports only: the tuple as the admin API shows it.
    let tuple: DeviceTupleJSON?
    /// Removals only: whether there was a tuple to remove.
    let removed: Bool?

}
