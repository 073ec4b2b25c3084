import Foundation
import Model
import Ports

/// The `call_records` columns of one record, computed (validated and
/// encoded) before the transaction that writes them: the same in every
/// adapter, so a record reads back alike whichever database holds it.
public struct CallRecordRow: Sendable {
    public var id: String
    public var pairingID: String
    public var callID: String
    public var callee: String
    public var caller: String
    public var startedAt: Double
    public var endedAt: Double?
    public var outcome: String?
    public var finalStatus: Int?
    /// The whole `CallRecord` as JSON.
    public var record: String
    /// The last answered push of each device tuple in the record, written on
    /// the tuple (`last_push_*`) in the same transaction.
    public var pushResults: [CallRecordPushResult] = []

    /// Validates and encodes `record`.
    /// - Throws: `invalidField` for an empty id; `CallRecordJSONWriter.NotFinite`
    ///   for a time JSON cannot hold.
    public static func encoded(_ record: CallRecord) throws -> CallRecordRow {
        guard !record.id.isEmpty else { throw StorageError.invalidField(name: "id", reason: "must not be empty") }
        let json = try CallRecordJSONWriter.json(record)
        return CallRecordRow(
            id: record.id, pairingID: record.pairingID, callID: record.callID, callee: record.callee,
            caller: record.caller, startedAt: record.startedAt.timeIntervalSince1970,
            endedAt: record.endedAt?.timeIntervalSince1970, outcome: record.outcome?.rawValue,
            finalStatus: record.finalStatus, record: json,
            pushResults: CallRecordPushResult.latest(in: record))
    }

    /// The record stored as `text`. Names the record that cannot be read, so
    /// an operator can find and delete that one row (damaged by hand, or
    /// written by a newer version with an outcome this one does not know).
    public static func decoded(_ text: String, id: String) throws -> CallRecord {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        do {
            return try decoder.decode(CallRecord.self, from: Data(text.utf8))
        } catch {
            throw StorageError.corruptRow(table: "call_records", detail: "record of call '\(id)' is not a readable call record")
        }
    }

    /// `record` closed at start, as a stop in the middle of its call left
    /// it: an end time at the last thing known about the call, and, without
    /// an outcome, the outcome `interrupted` and a timeline entry saying so.
    public static func closedAtStart(_ record: CallRecord) -> CallRecord {
        var record = record
        let end = record.endedAt ?? record.lastKnownAt
        record.endedAt = end
        if record.outcome == nil {
            record.outcome = .interrupted
            record.events.append(CallEventRecord(
                at: end, event: "call ended",
                detail: "outcome=interrupted (closed at start: sipwake stopped during the call)"))
        }
        return record
    }
}
