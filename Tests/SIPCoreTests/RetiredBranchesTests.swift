@testable import SIPCore
import Testing

/// `RetiredBranches` keeps each stopped INVITE branch for Timer C, at most
/// `capacity` of them, and finds them by Via branch.
@Suite struct RetiredBranchesTests {
    final class Entry: RetiredBranchEntry {
        let branch: String
        let expiresAt: ContinuousClock.Instant
        init(_ branch: String, expiresAt: ContinuousClock.Instant) {
            self.branch = branch
            self.expiresAt = expiresAt
        }
    }

    let start = ContinuousClock.now

    @Test func aBranchIsFoundByItsViaBranchInAnyCase() {
        let table = RetiredBranches<Entry>()
        table.insert(Entry("z9hg4bkabc", expiresAt: start + .seconds(180)), now: start)
        #expect(table.entry(branch: "z9hG4bKabc", now: start + .seconds(1))?.branch == "z9hg4bkabc")
        #expect(table.entry(branch: "z9hG4bKother", now: start + .seconds(1)) == nil)
    }

    @Test func anEntryIsForgottenOnceItExpires() {
        let table = RetiredBranches<Entry>()
        table.insert(Entry("a", expiresAt: start + .seconds(180)), now: start)
        table.insert(Entry("b", expiresAt: start + .seconds(190)), now: start + .seconds(10))
        #expect(table.entry(branch: "a", now: start + .seconds(179)) != nil)
        #expect(table.entry(branch: "a", now: start + .seconds(180)) == nil)
        #expect(table.count == 1)
        #expect(table.entry(branch: "b", now: start + .seconds(185)) != nil)
        #expect(table.entry(branch: "b", now: start + .seconds(191)) == nil)
        #expect(table.isEmpty)
    }

    @Test func aFullTableForgetsTheOldestAndCountsIt() {
        let table = RetiredBranches<Entry>(capacity: 3)
        let forgotten = (0..<5).map { n in
            table.insert(Entry("b\(n)", expiresAt: start + .seconds(180)), now: start)
        }
        #expect(forgotten == [0, 0, 0, 1, 1], "each insert says how many it pushed out (for the agent to report)")
        #expect(table.count == 3)
        #expect(table.forgottenEarly == 2)
        #expect(table.entry(branch: "b0", now: start) == nil)
        #expect(table.entry(branch: "b1", now: start) == nil)
        #expect(table.entry(branch: "b4", now: start) != nil)
    }

    @Test func manyEntriesOverTimeKeepTheTableBounded() {
        let table = RetiredBranches<Entry>(capacity: 100)
        for n in 0..<10_000 {
            let now = start + .milliseconds(n * 100)
            table.insert(Entry("b\(n)", expiresAt: now + .seconds(5)), now: now)
            #expect(table.count <= 51)
        }
        #expect(table.forgottenEarly == 0)
    }

    @Test func expiredEntriesMakeRoomWithoutCountingAsForgotten() {
        let table = RetiredBranches<Entry>(capacity: 2)
        table.insert(Entry("a", expiresAt: start + .seconds(180)), now: start)
        table.insert(Entry("b", expiresAt: start + .seconds(180)), now: start)
        #expect(table.insert(Entry("c", expiresAt: start + .seconds(360)), now: start + .seconds(180)) == 0)
        #expect(table.forgottenEarly == 0)
        #expect(table.count == 1)
    }
}
