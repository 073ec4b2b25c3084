import Foundation
import Model

/// The device tuples: reported by the apps (Push Token Reporter), removed on
/// logout (Account Removal Reporter), managed by the operator, read for
/// every incoming call and marked with each push's answer.
///
/// Rules every implementation keeps, each write in one transaction: invalid
/// input writes nothing; one tuple per (username, selector); one per (token,
/// selector) and per (token, user): writing a tuple deletes every other one
/// holding one of its tokens with the same selector or the same user (the
/// slot changed account, or was set up again). The same token under another
/// user and selector is a second account on the same device, and is kept.
public protocol TupleRepository: Sendable {
    /// The Push Token Reporter's upsert. A report of a known (username,
    /// selector) replaces both pairs and sets `lastSeenAt`; a nil platform
    /// keeps the one known. `created` tells whether the tuple is new.
    /// - Throws: `invalidUsername`, `invalidField`, `userNotFound`; nothing is written then.
    func report(
        username: String, selector: String,
        appIDCalls: String?, tokenCalls: String?, appIDOther: String?, tokenOther: String?,
        platform: DevicePlatform?, provider: String?, now: Date
    ) throws -> (tuple: DeviceTuple, created: Bool)
    /// The Account Removal Reporter: deletes that device's tuple for that
    /// user. `false` when there was none.
    func remove(username: String, selector: String) throws -> Bool

    /// Tuples ordered by id, all users or one.
    /// - Throws: `invalidField` for a negative limit or offset.
    func list(username: String?, limit: Int, offset: Int) throws -> [DeviceTuple]
    /// How many tuples, all users or one.
    func count(username: String?) throws -> Int
    func get(id: Int64) throws -> DeviceTuple?

    /// Adds a tuple (created and last seen `now`) for the push `provider`.
    /// - Throws: a validation error, `userNotFound`, `tupleExists`; nothing is written then.
    func create(
        username: String, selector: String,
        appIDCalls: String?, tokenCalls: String?, appIDOther: String?, tokenOther: String?,
        platform: DevicePlatform?, provider: String, now: Date
    ) throws -> DeviceTuple
    /// Replaces every writable field of tuple `id`; times and the last push
    /// result are kept.
    /// - Throws: a validation error, `tupleNotFound`, `userNotFound`, `tupleExists`.
    func update(
        id: Int64, username: String, selector: String,
        appIDCalls: String?, tokenCalls: String?, appIDOther: String?, tokenOther: String?,
        platform: DevicePlatform?, provider: String
    ) throws -> DeviceTuple
    /// `false` when there was no such tuple.
    func delete(id: Int64) throws -> Bool
    /// Deletes every listed tuple at once; returns how many were there.
    func delete(ids: [Int64]) throws -> Int
    /// Deletes all of a user's tuples; returns how many.
    func deleteAll(username: String) throws -> Int
    /// Deletes the tuples last reported before `notSeenSince`; returns how many.
    func purge(notSeenSince: Date) throws -> Int

    /// The change feed: the users whose tuples changed after change `after`
    /// (at most `limit` changes), for readers that keep tuples in memory
    /// while other processes (the CLI, the admin API) write them. Every
    /// write that changes what a push needs (tokens, app ids, selector,
    /// platform, provider, the tuple's existence) is a change; a push's
    /// answer is not. Start with `after: -1`: that reports `missed`.
    func changes(after: Int64, limit: Int) throws -> TupleChanges

    /// Records the answer to a push to tuple `id`: when, the HTTP status (nil
    /// when none came) and a short result. With `sentAt`, a tuple created
    /// after the push was sent (a new device that got a deleted tuple's id)
    /// is left alone.
    /// - Throws: `invalidField`, `tupleNotFound`.
    func recordPushResult(id: Int64, sentAt: Date?, at: Date, status: Int?, result: String) throws
}
