import Foundation
import Hummingbird
import HummingbirdTesting
import Model
import SQLiteStorage
import Testing

/// The admin API's `provider` field: optional in bodies (the provider that
/// reaches the tuple's app by default), checked against the app's, and
/// shown on every tuple.
@Suite struct AdminProviderTests {
    private static func json(_ response: TestResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any])
    }

    /// The iOS app pushed through APNs directly, every other app through the gateway.
    static let routing = PushRouting(apps: [AdminTests.iosAppID: "apns", AdminTests.iosOtherAppID: "apns"])

    @Test func aTupleTakesItsAppsProviderAndAnUnlistedAppTheGateway() async throws {
        try await AdminTests.withApp(pushRouting: Self.routing) { client, database in
            try AdminTests.addUser("alice", to: database)
            var id = 0
            try await client.execute(uri: "/admin/v1/tuples", method: .post, headers: AdminTests.headers(json: true),
                                     body: try AdminTests.body(AdminTests.tupleBody())) { response in
                #expect(response.status == .created)
                let json = try Self.json(response)
                #expect(json["provider"] as? String == "apns")
                id = json["id"] as? Int ?? 0
            }
            let android = (AdminTests.androidAppID, "fcm-token-1")
            var body = AdminTests.tupleBody(calls: android, other: android, platform: "android")
            body["provider"] = "acrobits"
            try await client.execute(uri: "/admin/v1/tuples/\(id)", method: .put, headers: AdminTests.headers(json: true),
                                     body: try AdminTests.body(body)) { response in
                #expect(response.status == .ok)
                let json = try Self.json(response)
                #expect(json["provider"] as? String == "acrobits")
            }
            try await client.execute(uri: "/admin/v1/tuples", method: .get, headers: AdminTests.headers()) { response in
                let items = try #require(try Self.json(response)["items"] as? [[String: Any]])
                #expect(items.map { $0["provider"] as? String } == ["acrobits"])
            }
            #expect(try TupleStore(database: database).get(id: Int64(id))?.provider == "acrobits")
        }
    }

    /// A name that cannot be a provider, or another provider than the one
    /// that reaches the app, is refused; nothing is stored.
    @Test func aProviderThatCannotReachTheAppIsRefusedByName() async throws {
        try await AdminTests.withApp(pushRouting: Self.routing) { client, database in
            try AdminTests.addUser("alice", to: database)
            for bad in ["", "FCM", "fcm_v1", String(repeating: "a", count: 33), "acrobits"] {
                var body = AdminTests.tupleBody()
                body["provider"] = bad
                try await client.execute(uri: "/admin/v1/tuples", method: .post,
                                         headers: AdminTests.headers(json: true),
                                         body: try AdminTests.body(body)) { response in
                    #expect(response.status == .badRequest, "\(bad)")
                    let json = try Self.json(response)
                    #expect(json["field"] as? String == "provider")
                    if bad == "acrobits" {
                        #expect((json["error"] as? String)?.contains("pushed through apns on this server, not acrobits") == true)
                    }
                }
            }
            #expect(try TupleStore(database: database).count() == 0)
        }
    }

    /// Without a gateway, an app that is not listed cannot be reached: refused, naming the field.
    @Test func anUnlistedAppWithoutAGatewayIsRefused() async throws {
        let routing = PushRouting(apps: [AdminTests.iosAppID: "apns"], gatewayProvider: nil)
        try await AdminTests.withApp(pushRouting: routing) { client, database in
            try AdminTests.addUser("alice", to: database)
            try await client.execute(uri: "/admin/v1/tuples", method: .post, headers: AdminTests.headers(json: true),
                                     body: try AdminTests.body(AdminTests.tupleBody())) { response in
                #expect(response.status == .badRequest)
                let json = try Self.json(response)
                #expect(json["field"] as? String == "app_id_other")
                #expect((json["error"] as? String)?.contains("app id '\(AdminTests.iosOtherAppID)' has no push provider") == true)
            }
            #expect(try TupleStore(database: database).count() == 0)
        }
    }
}
