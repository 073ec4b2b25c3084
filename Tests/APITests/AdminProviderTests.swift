import Foundation
import Hummingbird
import HummingbirdTesting
import SQLiteStorage
import Testing

/// The admin API's `provider` field: optional in bodies (the Acrobits
/// gateway by default), validated, and shown on every tuple.
@Suite struct AdminProviderTests {
    private static func json(_ response: TestResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any])
    }

    @Test func aTupleWithoutAProviderIsPushedThroughAcrobitsAndOneCanBeChosen() async throws {
        try await AdminTests.withApp(pushProviders: ["acrobits", "fcm-v1"]) { client, database in
            try AdminTests.addUser("alice", to: database)
            var id = 0
            try await client.execute(uri: "/admin/v1/tuples", method: .post, headers: AdminTests.headers(json: true),
                                     body: try AdminTests.body(AdminTests.tupleBody())) { response in
                #expect(response.status == .created)
                let json = try Self.json(response)
                #expect(json["provider"] as? String == "acrobits")
                id = json["id"] as? Int ?? 0
            }
            var body = AdminTests.tupleBody(platform: "android")
            body["provider"] = "fcm-v1"
            try await client.execute(uri: "/admin/v1/tuples/\(id)", method: .put, headers: AdminTests.headers(json: true),
                                     body: try AdminTests.body(body)) { response in
                #expect(response.status == .ok)
                let json = try Self.json(response)
                #expect(json["provider"] as? String == "fcm-v1")
            }
            try await client.execute(uri: "/admin/v1/tuples", method: .get, headers: AdminTests.headers()) { response in
                let items = try #require(try Self.json(response)["items"] as? [[String: Any]])
                #expect(items.map { $0["provider"] as? String } == ["fcm-v1"])
            }
            #expect(try TupleStore(database: database).get(id: Int64(id))?.provider == "fcm-v1")
        }
    }

    /// A name that cannot be a provider, or one this server does not have
    /// (its device could never be woken), is refused; nothing is stored.
    @Test func aProviderThatCannotNameOneIsRefusedByName() async throws {
        try await AdminTests.withApp { client, database in
            try AdminTests.addUser("alice", to: database)
            for bad in ["", "FCM", "fcm_v1", String(repeating: "a", count: 33), "apns"] {
                var body = AdminTests.tupleBody()
                body["provider"] = bad
                try await client.execute(uri: "/admin/v1/tuples", method: .post,
                                         headers: AdminTests.headers(json: true),
                                         body: try AdminTests.body(body)) { response in
                    #expect(response.status == .badRequest, "\(bad)")
                    let json = try Self.json(response)
                    #expect(json["field"] as? String == "provider")
                    if bad == "apns" { #expect((json["error"] as? String)?.contains("pushes through acrobits") == true) }
                }
            }
            #expect(try TupleStore(database: database).count() == 0)
        }
    }
}
