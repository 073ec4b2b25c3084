import Foundation
import GRDB
@testable import SQLiteStorage

/// A path for a SQLite file in a fresh temporary directory, for tests that
/// run without `XCTestCase`; `remove()` deletes the directory.
struct TemporaryDatabaseFile {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("sipwake-storage-tests-\(UUID().uuidString)")

    var path: String { directory.appendingPathComponent("sipwake.sqlite").path }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Writes the file as a build that knew migrations up to `version`
    /// would have: alice and her tuples with `selectors` (app `app`, token
    /// `t` + the selector's last character).
    func writeOldSchema(upTo version: String, selectors: [String]) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let old = try DatabaseQueue(path: path)
        try StorageMigrations.migrator.migrate(old, upTo: version)
        try old.write { db in
            try db.execute(sql: """
                INSERT INTO users (username, realm, ha1_md5, ha1_sha256, wakeup_hold, created_at, updated_at)
                VALUES ('alice', 'r', ?, ?, 1, 0, 0)
                """, arguments: [String(repeating: "a", count: 32), String(repeating: "b", count: 64)])
            for selector in selectors {
                try db.execute(sql: """
                    INSERT INTO device_tuples (username, selector, app_id_calls, token_calls, created_at, last_seen_at)
                    VALUES ('alice', ?, 'app', ?, 0, 0)
                    """, arguments: [selector, "t" + String(selector.suffix(1))])
            }
        }
        try old.close()
    }
}
