import Foundation
import Model
import Ports

/// The device tuples as this process writes them: every write goes to the
/// store, then the `DeviceTupleIndex` catches up before the write returns,
/// so a call arriving right after a token report pushes the new token.
/// Reads go to the store unchanged. A push's answer changes nothing the
/// index holds and goes straight through.
struct IndexedTupleRepository: TupleRepository {
    let store: any TupleRepository
    let index: DeviceTupleIndex

    init(store: any TupleRepository, index: DeviceTupleIndex) {
        self.store = store
        self.index = index
    }

    private func written<T>(_ result: T) -> T {
        index.refresh(from: store)
        return result
    }

    func report(
        username: String, selector: String,
        appIDCalls: String?, tokenCalls: String?, appIDOther: String?, tokenOther: String?,
        platform: DevicePlatform?, provider: String?, now: Date
    ) throws -> (tuple: DeviceTuple, created: Bool) {
        written(try store.report(username: username, selector: selector, appIDCalls: appIDCalls,
                                 tokenCalls: tokenCalls, appIDOther: appIDOther, tokenOther: tokenOther,
                                 platform: platform, provider: provider, now: now))
    }

    func remove(username: String, selector: String) throws -> Bool {
        written(try store.remove(username: username, selector: selector))
    }

    func list(username: String?, limit: Int, offset: Int) throws -> [DeviceTuple] {
        try store.list(username: username, limit: limit, offset: offset)
    }

    func count(username: String?) throws -> Int {
        try store.count(username: username)
    }

    func get(id: Int64) throws -> DeviceTuple? {
        try store.get(id: id)
    }

    func create(
        username: String, selector: String,
        appIDCalls: String?, tokenCalls: String?, appIDOther: String?, tokenOther: String?,
        platform: DevicePlatform?, provider: String, now: Date
    ) throws -> DeviceTuple {
        written(try store.create(username: username, selector: selector, appIDCalls: appIDCalls,
                                 tokenCalls: tokenCalls, appIDOther: appIDOther, tokenOther: tokenOther,
                                 platform: platform, provider: provider, now: now))
    }

    func update(
        id: Int64, username: String, selector: String,
        appIDCalls: String?, tokenCalls: String?, appIDOther: String?, tokenOther: String?,
        platform: DevicePlatform?, provider: String
    ) throws -> DeviceTuple {
        written(try store.update(id: id, username: username, selector: selector, appIDCalls: appIDCalls,
                                 tokenCalls: tokenCalls, appIDOther: appIDOther, tokenOther: tokenOther,
                                 platform: platform, provider: provider))
    }

    func delete(id: Int64) throws -> Bool {
        written(try store.delete(id: id))
    }

    func delete(ids: [Int64]) throws -> Int {
        written(try store.delete(ids: ids))
    }

    func deleteAll(username: String) throws -> Int {
        written(try store.deleteAll(username: username))
    }

    func purge(notSeenSince: Date) throws -> Int {
        written(try store.purge(notSeenSince: notSeenSince))
    }

    func changes(after: Int64, limit: Int) throws -> TupleChanges {
        try store.changes(after: after, limit: limit)
    }

    func recordPushResult(id: Int64, sentAt: Date?, at: Date, status: Int?, result: String) throws {
        try store.recordPushResult(id: id, sentAt: sentAt, at: at, status: status, result: result)
    }
}
