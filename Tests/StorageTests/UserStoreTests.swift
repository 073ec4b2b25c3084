import Foundation
import Registrar
import Ports
import Model
import SQLiteStorage
import XCTest

/// The user store rules, on every adapter.
final class UserStoreTests: XCTestCase {
    private func eachAdapter(_ body: (OpenedStores) throws -> Void) throws {
        for adapter in StoreAdapter.allCases {
            try OpenedStores.with(adapter, body)
        }
    }

    private let md5 = "0123456789abcdef0123456789abcdef"
    private let sha256 = String(repeating: "0123456789abcdef", count: 4)

    func testAddFindListRemove() throws {
        try eachAdapter { opened in
        let users = opened.stores.users
        let before = Date().timeIntervalSince1970

        let alice = try users.add(username: "Alice", realm: "sipwake.example", ha1MD5: md5.uppercased(), ha1SHA256: sha256)
        XCTAssertEqual(alice.username, "alice")
        XCTAssertEqual(alice.realm, "sipwake.example")
        XCTAssertEqual(alice.ha1MD5, md5, "stored lower-cased")
        XCTAssertEqual(alice.ha1SHA256, sha256)
        XCTAssertTrue(alice.wakeupHold)
        XCTAssertEqual(alice.createdAt, alice.updatedAt)
        XCTAssertGreaterThanOrEqual(alice.createdAt.timeIntervalSince1970, before)
        XCTAssertEqual(try users.find(username: "alice"), alice)
        XCTAssertEqual(try users.find(username: "ALICE"), alice)
        XCTAssertNil(try users.find(username: "bob"))
        XCTAssertNil(try users.find(username: "no@such"))

        let bob = try users.add(username: "bob", realm: "sipwake.example", ha1MD5: md5, ha1SHA256: sha256)
        XCTAssertEqual(try users.list(), [alice, bob])

        try users.remove(username: "ALICE")
        XCTAssertNil(try users.find(username: "alice"))
        XCTAssertEqual(try users.list(), [bob])
        XCTAssertThrowsError(try users.remove(username: "alice")) { error in
            XCTAssertEqual(error as? StorageError, .userNotFound("alice"))
        }
        }
    }

    func testDuplicateIsRefusedWhateverTheCase() throws {
        try eachAdapter { opened in
        let users = opened.stores.users
        let alice = try users.add(username: "alice", realm: "r1", ha1MD5: md5, ha1SHA256: sha256)
        XCTAssertThrowsError(try users.add(username: "ALICE", realm: "r2", ha1MD5: md5, ha1SHA256: sha256)) { error in
            XCTAssertEqual(error as? StorageError, .userExists("alice"))
            XCTAssertEqual("\(error)", "user 'alice' already exists")
        }
        XCTAssertEqual(try users.list(), [alice], "the first record is untouched")
        XCTAssertEqual(try users.usersVersion(), 1)
        }
    }

    func testInvalidUsernamesAreRejectedAndNothingIsWritten() throws {
        try eachAdapter { opened in
        let users = opened.stores.users
        let invalid = [
            "", String(repeating: "a", count: 65), "alice@example.com", "sip:alice", "al ice", "alice\t",
            "al\nice", "a/b", "a%40b", "ålice", "alice\"", "<alice>", "a#b", "a[1]",
        ]
        for username in invalid {
            XCTAssertFalse(SIPUsername.isValid(username), username)
            XCTAssertThrowsError(try users.add(username: username, realm: "r", ha1MD5: md5, ha1SHA256: sha256)) { error in
                XCTAssertEqual(error as? StorageError, .invalidUsername(username))
            }
        }
        XCTAssertEqual(try users.list(), [])
        XCTAssertEqual(try users.usersVersion(), 0)

        let valid = [String(repeating: "z", count: 64), "a-_.!~*'()&=+$,;?z", "1001", "x"]
        for username in valid {
            XCTAssertTrue(SIPUsername.isValid(username), username)
            XCTAssertNoThrow(try users.add(username: username, realm: "r", ha1MD5: md5, ha1SHA256: sha256), username)
        }
        XCTAssertEqual(try users.list().count, valid.count)
        }
    }

    func testCredentialsMustBeHA1HexAndARealm() throws {
        try eachAdapter { opened in
        let users = opened.stores.users
        XCTAssertThrowsError(try users.add(username: "alice", realm: "r", ha1MD5: "secret-password", ha1SHA256: sha256)) {
            XCTAssertEqual($0 as? StorageError, .invalidHA1(field: "ha1MD5"))
            XCTAssertFalse("\($0)".contains("secret-password"), "a password must never be echoed")
        }
        XCTAssertThrowsError(try users.add(username: "alice", realm: "r", ha1MD5: md5, ha1SHA256: md5)) {
            XCTAssertEqual($0 as? StorageError, .invalidHA1(field: "ha1SHA256"))
        }
        XCTAssertThrowsError(try users.add(username: "alice", realm: "", ha1MD5: md5, ha1SHA256: sha256)) {
            XCTAssertEqual($0 as? StorageError, .invalidRealm(""))
        }
        XCTAssertEqual(try users.list(), [])
        XCTAssertEqual(try users.usersVersion(), 0)
        }
    }

    func testSetPasswordAndWakeupHold() throws {
        try eachAdapter { opened in
        let users = opened.stores.users
        let alice = try users.add(username: "alice", realm: "old", ha1MD5: md5, ha1SHA256: sha256)
        let newMD5 = String(repeating: "f", count: 32)
        let newSHA = String(repeating: "e", count: 64)

        try users.setPassword(username: "Alice", realm: "new", ha1MD5: newMD5, ha1SHA256: newSHA)
        let changed = try XCTUnwrap(try users.find(username: "alice"))
        XCTAssertEqual(changed.realm, "new")
        XCTAssertEqual(changed.ha1MD5, newMD5)
        XCTAssertEqual(changed.ha1SHA256, newSHA)
        XCTAssertEqual(changed.createdAt, alice.createdAt)
        XCTAssertGreaterThanOrEqual(changed.updatedAt, alice.updatedAt)

        try users.setWakeupHold(username: "alice", false)
        XCTAssertEqual(try users.find(username: "alice")?.wakeupHold, false)

        XCTAssertThrowsError(try users.setPassword(username: "bob", realm: "r", ha1MD5: md5, ha1SHA256: sha256)) {
            XCTAssertEqual($0 as? StorageError, .userNotFound("bob"))
        }
        XCTAssertThrowsError(try users.setWakeupHold(username: "bob", true)) {
            XCTAssertEqual($0 as? StorageError, .userNotFound("bob"))
        }
        }
    }

    func testUsersVersionChangesOnEveryUserWriteOnly() throws {
        try eachAdapter { opened in
        let users = opened.stores.users
        XCTAssertEqual(try users.usersVersion(), 0)
        _ = try users.add(username: "alice", realm: "r", ha1MD5: md5, ha1SHA256: sha256)
        XCTAssertEqual(try users.usersVersion(), 1)
        try users.setPassword(username: "alice", realm: "r2", ha1MD5: md5, ha1SHA256: sha256)
        XCTAssertEqual(try users.usersVersion(), 2)
        try users.setWakeupHold(username: "alice", false)
        XCTAssertEqual(try users.usersVersion(), 3)

        // Failed user writes and binding writes leave it alone.
        XCTAssertThrowsError(try users.remove(username: "bob"))
        XCTAssertThrowsError(try users.add(username: "alice", realm: "r", ha1MD5: md5, ha1SHA256: sha256))
        try opened.bindingBatch.apply([.added(BindingFixture.instance())])
        XCTAssertEqual(try users.usersVersion(), 3)

        try users.remove(username: "alice")
        XCTAssertEqual(try users.usersVersion(), 4)
        }
    }

    func testRemovingAUserRemovesTheirBindingsOnly() throws {
        try eachAdapter { opened in
        let users = opened.stores.users
        let bindings = opened.bindingBatch
        _ = try users.add(username: "alice", realm: "r", ha1MD5: md5, ha1SHA256: sha256)
        _ = try users.add(username: "bob", realm: "r", ha1MD5: md5, ha1SHA256: sha256)
        let bob = BindingFixture.contact(aor: "bob")
        try bindings.apply([
            .added(BindingFixture.instance(aor: "alice", uuid: "1")),
            .added(BindingFixture.instance(aor: "alice", uuid: "2")),
            .added(bob),
        ])

        try users.remove(username: "alice")
        XCTAssertEqual(try opened.stores.bindings.loadAll(), [BindingFixture.stored(bob)])
        }
    }
}
