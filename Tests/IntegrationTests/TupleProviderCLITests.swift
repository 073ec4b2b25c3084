import Foundation
import Model
import SQLiteStorage
import Testing

/// `sipwake tuples show|list` name each tuple's push provider.
@Suite struct TupleProviderCLITests {
    @Test func showAndListNameTheProvider() throws {
        let server = try SipwakeProcess()
        try server.addUser("alice", password: "alice-secret")
        let database = try SipwakeDatabase(path: server.directory.appendingPathComponent("sipwake.sqlite").path)
        let tuple = try TupleStore(database: database).create(
            username: "alice", selector: "s1", appIDCalls: "com.example.voip", tokenCalls: "t1", appIDOther: nil,
            tokenOther: nil, platform: .android, provider: "fcm-v1")
        try database.close()

        let text = try server.cli(["tuples", "show", String(tuple.id)])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("provider") && text.stdout.contains("fcm-v1"), "\(text.stdout)")

        let table = try server.cli(["tuples", "list"])
        #expect(table.status == 0, "\(table.stderr)")
        let lines = table.stdout.split(separator: "\n")
        #expect(lines.first?.contains("PROVIDER") == true, "\(table.stdout)")
        #expect(lines.dropFirst().first?.contains(" fcm-v1 ") == true, "\(table.stdout)")

        let json = try server.cli(["tuples", "list", "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(rows.map { $0["provider"] as? String } == ["fcm-v1"])
    }
}
