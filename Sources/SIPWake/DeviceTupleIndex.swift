import Foundation
import Logging
import Metrics
import Model
import Ports
import Synchronization

/// Every user's device tuples in memory, so that a call's pushes leave in
/// the same turn of the SIP loop as its INVITE instead of after a read off
/// the loop and a hop back.
///
/// It mirrors the store and follows the store's change feed
/// (`TupleRepository.changes(after:limit:)`), which every writer feeds,
/// the CLI and a user's removal included. It is used only when it is
/// current: for each INVITE the call path reads the feed's latest change
/// (`TupleChangeHead`, a few microseconds, never waiting for a lock) and
/// compares it with the last change the index applied.
///
/// | who wrote tuples last | the next call's tuples come from |
/// |---|---|
/// | this process (Reporter, admin API, a push's gone token, the stale-tuple purge) | memory: the index caught up before the write returned (`IndexedTupleRepository`) |
/// | another process (`sipwake tuples add`, `sipwake users delete`, a hand edit) | the store, read off the loop as before, until the index catches up (at once, queued by that call, and every `SIPServer.tupleRefreshInterval`) |
/// | more than the feed keeps at once (a large purge) | as above; the catch-up reads the whole table again |
///
/// So a call never sees tuples older than the ones stored when its INVITE
/// arrived. Lookups take a short lock and never wait on the disk: a
/// catch-up reads the store first and only then takes that lock to swap in
/// what it read. Catch-ups run one at a time, in order, on the writer's
/// thread or the tuple refresh queue, never on the SIP loop. A catch-up
/// that fails (a row it cannot read) leaves the index behind: calls read
/// the store, as they did before there was an index.
public final class DeviceTupleIndex: Sendable {
    /// How many changes one catch-up step reads; how many tuples of one user are pushed.
    static let changesPerRead = 1000
    static let tuplesPerUser = 1000

    private struct Entries {
        var byUser: [String: [DeviceTuple]] = [:]
        var loaded = false
        var tupleCount = 0
        /// The last change applied.
        var through: Int64 = -1
    }

    private let entries = Mutex(Entries())
    /// The last change applied; held for a whole catch-up so catch-ups run one at a time.
    private let applied = Mutex<Int64>(-1)
    /// A catch-up was asked for by a call and has not started yet.
    private let catchUpAsked = Mutex(false)
    private let head: any TupleChangeHead
    private let logger: Logger
    private let failures: Counter

    /// `head` reads the feed's latest change; `failures` counts the
    /// catch-ups that could not read the store.
    public init(head: any TupleChangeHead, logger: Logger, failures: Counter) {
        self.head = head
        self.logger = logger
        self.failures = failures
    }

    /// The user's tuples (empty when she has none) when the index has
    /// applied every change stored so far; nil when it is behind, not
    /// loaded, or the feed cannot be read at once: the caller reads the
    /// store then (and `askCatchUp`).
    public func tuples(of username: String) -> [DeviceTuple]? {
        guard let latest = head.latest() else {
            // The file is locked or closed: counted, and told once a minute at most.
            failures.increment()
            if let failed = headUntold.withLock({ $0.add(1, now: Date()) }) {
                logger.warning("device tuple feed not readable: calls read the database meanwhile",
                               metadata: ["tuples.failures": .stringConvertible(failed)])
            }
            return nil
        }
        return entries.withLock { $0.loaded && $0.through == latest ? $0.byUser[username] ?? [] : nil }
    }

    /// Users and tuples held.
    public var counts: (users: Int, tuples: Int) {
        entries.withLock { ($0.byUser.count, $0.tupleCount) }
    }

    /// True when the caller should queue a catch-up (`refresh`): none was
    /// asked for since the last one started. Keeps a burst of calls from
    /// queueing a catch-up each.
    public func askCatchUp() -> Bool {
        catchUpAsked.withLock { asked in
            defer { asked = true }
            return !asked
        }
    }

    /// Failed catch-ups, and feed reads that could not answer, not yet told in the log.
    private let untold = Mutex(ThrottledCount(interval: DeviceTupleIndex.warningInterval))
    private let headUntold = Mutex(ThrottledCount(interval: DeviceTupleIndex.warningInterval))
    /// At most one warning a minute while catch-ups keep failing.
    static let warningInterval: TimeInterval = 60

    /// `catchUp`, with a failure counted and logged (at most once a minute,
    /// with the count): the index keeps what it had, calls read the store
    /// meanwhile, and the next catch-up tries again from the same change.
    public func refresh(from store: any TupleRepository) {
        do {
            try catchUp(from: store)
        } catch {
            failures.increment()
            if let failed = untold.withLock({ $0.add(1, now: Date()) }) {
                logger.warning("device tuple index not refreshed: calls read the database meanwhile",
                               metadata: ["error": "\(error)", "tuples.failures": .stringConvertible(failed)])
            }
        }
    }

    /// Reads what changed since the last catch-up and applies it: the
    /// changed users' tuples, or the whole table the first time and when
    /// changes were missed. Returns how many users were read again (or -1
    /// for the whole table). Blocks on the disk: never call it on the SIP loop.
    @discardableResult
    public func catchUp(from store: any TupleRepository) throws -> Int {
        try applied.withLock { applied in
            catchUpAsked.withLock { $0 = false }
            var reread = 0
            while true {
                let changes = try store.changes(after: applied, limit: Self.changesPerRead)
                if changes.missed {
                    // Everything written up to `through` is in this read.
                    let all = try store.list(username: nil, limit: Int.max, offset: 0)
                    // In id order, as the per-user read: the same first `tuplesPerUser`.
                    let byUser = Dictionary(grouping: all, by: \.username).mapValues { Array($0.prefix(Self.tuplesPerUser)) }
                    let count = byUser.values.reduce(0) { $0 + $1.count }
                    // The old table is freed after the lock is let go: a lookup
                    // from the SIP loop never waits for a large deallocation.
                    var replaced = Entries(byUser: byUser, loaded: true, tupleCount: count, through: changes.through)
                    entries.withLock { swap(&$0, &replaced) }
                    reread = -1
                } else {
                    var read: [String: [DeviceTuple]] = [:]
                    for username in changes.usernames {
                        read[username] = try store.list(username: username, limit: Self.tuplesPerUser, offset: 0)
                    }
                    entries.withLock { entries in
                        for (username, tuples) in read {
                            entries.tupleCount += tuples.count - (entries.byUser[username]?.count ?? 0)
                            entries.byUser[username] = tuples.isEmpty ? nil : tuples
                        }
                        entries.through = changes.through
                    }
                    if reread >= 0 { reread += read.count }
                }
                applied = changes.through
                guard changes.more else { return reread }
            }
        }
    }
}
