import Foundation

/// A path for a SQLite file in a fresh temporary directory, for tests that
/// run without `XCTestCase`; `remove()` deletes the directory.
struct TemporaryDatabaseFile {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("sipwake-storage-tests-\(UUID().uuidString)")

    var path: String { directory.appendingPathComponent("sipwake.sqlite").path }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}
