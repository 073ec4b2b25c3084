import Foundation
import SQLiteStorage
import XCTest

/// A real SQLite file in a fresh temporary directory, removed after the test.
enum TestDatabase {
    /// A path (in a not yet existing sub-directory, to exercise directory creation).
    static func makePath(_ testCase: XCTestCase, file: String = "sipwake.sqlite") throws -> String {
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("sipwake-storage-tests-\(UUID().uuidString)")
        testCase.addTeardownBlock {
            try? FileManager.default.removeItem(at: root)
        }
        return root.appendingPathComponent("var/lib").appendingPathComponent(file).path
    }

    /// Opens a database at a fresh path; closes it after the test.
    static func open(_ testCase: XCTestCase) throws -> SipwakeDatabase {
        let database = try SipwakeDatabase(path: makePath(testCase))
        testCase.addTeardownBlock {
            try? database.close()
        }
        return database
    }
}
