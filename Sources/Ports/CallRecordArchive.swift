import Foundation
import Model

/// The stored call records, for `sipwake calls`, the admin API, the start-up
/// clean-up and the retention purge.
public protocol CallRecordArchive: Sendable {
    /// Records newest first, all callees or one (case-insensitive), all
    /// outcomes or one (calls in progress have none).
    /// - Throws: `invalidField` for a negative limit or offset.
    func list(callee: String?, outcome: CallOutcome?, limit: Int, offset: Int) throws -> [CallRecord]
    /// How many records `list` would return without paging.
    func count(callee: String?, outcome: CallOutcome?) throws -> Int
    /// The record whose id is `key`; else the newest whose pairing id is
    /// `key`; else the newest whose Call-ID is `key`.
    func find(_ key: String) throws -> CallRecord?
    /// Deletes records of calls that started before `date`; returns how many.
    func purge(startedBefore date: Date) throws -> Int
    /// Closes the open records of calls no running process holds (outcome
    /// `interrupted`): at start, those a stop in the middle of a call left
    /// open; on a store several nodes share, only those of nodes that are
    /// not running. Returns how many, and the ids of open records that
    /// cannot be read (left as they are).
    func closeOpenRecords() throws -> (closed: Int, unreadable: [String])
}
