import Model

/// One batch of the call-record writer: the latest version of each record,
/// then the hang-ups of records no version of the batch took.
struct CallRecordBatch: Sendable {
    var records: [CallRecord]
    var hangUps: [CallHangUp]
}
