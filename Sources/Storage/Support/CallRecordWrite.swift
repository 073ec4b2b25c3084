import Model

/// What the call-record writer is handed: a new version of a record, or the
/// BYE that ends an answered call already written.
enum CallRecordWrite: Sendable {
    case record(CallRecord)
    case hangUp(CallHangUp)
}
