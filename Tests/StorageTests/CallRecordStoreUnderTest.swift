import Foundation
import Model
import Ports
import StorageSupport

/// Any adapter's call-record store with the calls the tests make: saving
/// the way the writer does (encoded, one transaction), and the archive's
/// reads with the concrete stores' defaults.
struct CallRecordStoreUnderTest {
    let store: any CallRecordArchive & CallRecordBatchStore

    func save(_ records: [CallRecord]) throws {
        try store.write(try records.map(CallRecordRow.encoded))
    }

    func save(_ record: CallRecord) throws {
        try save([record])
    }

    func count(callee: String? = nil, outcome: CallOutcome? = nil) throws -> Int {
        try store.count(callee: callee, outcome: outcome)
    }

    func list(callee: String? = nil, outcome: CallOutcome? = nil, limit: Int = 50, offset: Int = 0) throws -> [CallRecord] {
        try store.list(callee: callee, outcome: outcome, limit: limit, offset: offset)
    }

    func find(_ key: String) throws -> CallRecord? {
        try store.find(key)
    }

    func purge(startedBefore date: Date) throws -> Int {
        try store.purge(startedBefore: date)
    }
}
