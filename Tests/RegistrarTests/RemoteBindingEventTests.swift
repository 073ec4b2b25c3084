import Foundation
import Model
import XCTest
@testable import Registrar

/// `LocationTable.applyRemote`: another node's committed binding changes,
/// applied here with the newer write winning.
final class RemoteBindingEventTests: XCTestCase {
    typealias F = RegisterFixture
    let t0 = RegisterFixture.t0

    func event(_ kind: BindingEvent.Kind, _ binding: Binding, seq: Int64 = 1) -> BindingEvent {
        BindingEvent(seq: seq, node: "node-b", kind: kind, binding: binding)
    }

    func testAPhoneRegisteredElsewhereIsAddedThenRefreshedThenRemoved() {
        var table = LocationTable()
        let first = F.binding(contact: "b", expiresAt: t0 + 600)
        XCTAssertEqual(table.applyRemote([event(.saved, first)]), [.added(first)])
        XCTAssertEqual(table.bindings(of: "alice", now: t0), [first])

        var refreshed = first
        refreshed.updatedAt = t0 + 60
        refreshed.expiresAt = t0 + 660
        XCTAssertEqual(table.applyRemote([event(.saved, refreshed, seq: 2)]), [.refreshed(old: first, new: refreshed)])

        XCTAssertEqual(table.applyRemote([event(.removed, refreshed, seq: 3)]), [.removed(refreshed, reason: .unregistered)])
        XCTAssertEqual(table.count, 0)
    }

    func testAnOlderEventNeverUndoesANewerLocalWrite() {
        var table = LocationTable()
        var local = F.binding(contact: "b", expiresAt: t0 + 600)
        local.updatedAt = t0 + 120
        table.load([local])
        let stale = F.binding(contact: "b", expiresAt: t0 + 300, updatedAt: t0 + 60)
        XCTAssertEqual(table.applyRemote([event(.saved, stale)]), [], "a stale save changes nothing")
        XCTAssertEqual(table.applyRemote([event(.removed, stale)]), [], "a removal older than the refresh keeps it")
        XCTAssertEqual(table.bindings(of: "alice", now: t0), [local])
    }

    func testARemovalOfAnUnknownBindingChangesNothing() {
        var table = LocationTable()
        XCTAssertEqual(table.applyRemote([event(.removed, F.binding(contact: "x", expiresAt: t0 + 600))]), [])
        XCTAssertEqual(table.count, 0)
    }
}
