import API
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Model
import Registrar
import SQLiteStorage
import TestSupport
import XCTest

/// `/admin/v1/users`: list, add, change password, wake-up hold, remove,
/// over a live app and a real SQLite file; the same store calls and checks
/// as `sipwake users`.
final class AdminUsersAPITests: XCTestCase {
    private static func users(_ database: SipwakeDatabase) throws -> [UserRecord] {
        try UserStore(database: database).list()
    }

    func testEveryUsersRouteNeedsTheToken() async throws {
        try await AdminTests.withApp(adminFailuresPerMinute: 100) { client, database in
            try AdminTests.addUser("alice", to: database)
            let before = try Self.users(database)
            let routes: [(String, HTTPRequest.Method, [String: Any]?)] = [
                ("/admin/v1/users", .get, nil),
                ("/admin/v1/users", .post, ["username": "mallory", "password": "pw"]),
                ("/admin/v1/users/alice/password", .put, ["password": "taken-over"]),
                ("/admin/v1/users/alice/hold", .put, ["wakeup_hold": false]),
                ("/admin/v1/users/alice", .delete, nil),
            ]
            for (uri, method, body) in routes {
                for token in [nil, "wrong-admin-token-0123456789"] as [String?] {
                    let headers = AdminTests.headers(token: token, json: body != nil)
                    try await client.execute(uri: uri, method: method, headers: headers,
                                             body: try body.map(AdminTests.body)) { response in
                        try AdminTests.assertError(response, .unauthorized)
                    }
                }
            }
            XCTAssertEqual(try Self.users(database), before, "nothing changed without the token")
        }
    }

    func testAddListChangePasswordHoldAndRemove() async throws {
        let recorder = LogRecorder()
        try await AdminTests.withApp(adminFailuresPerMinute: 100, logger: recorder.logger) { client, database in
            try await client.execute(uri: "/admin/v1/users", method: .post, headers: AdminTests.headers(json: true),
                                     body: try AdminTests.body(["username": "Carol", "password": "carol-first"])) { response in
                XCTAssertEqual(response.status, .created, String(buffer: response.body))
                XCTAssertEqual(response.headers[.location], "/admin/v1/users/carol")
                let json = try AdminTests.object(response)
                XCTAssertEqual(json["username"] as? String, "carol")
                XCTAssertEqual(json["realm"] as? String, AdminTests.realm)
                XCTAssertEqual(json["wakeup_hold"] as? Bool, true)
                XCTAssertNotNil(json["created_at"] as? String)
                XCTAssertNil(json["password"])
                XCTAssertNil(json["ha1_md5"], "no HA1 leaves the server")
            }
            let added = try XCTUnwrap(try UserStore(database: database).find(username: "carol"))
            XCTAssertEqual(added.ha1SHA256, DigestHash.ha1(username: "carol", realm: AdminTests.realm,
                                                           password: "carol-first", algorithm: .sha256),
                           "the password is hashed for the SIP realm, as `users add` does")
            XCTAssertEqual(added.ha1MD5, DigestHash.ha1(username: "carol", realm: AdminTests.realm,
                                                        password: "carol-first", algorithm: .md5))
            try AdminTests.addUser("alice", to: database)

            try await client.execute(uri: "/admin/v1/users", method: .get, headers: AdminTests.headers()) { response in
                XCTAssertEqual(response.status, .ok)
                let items = try XCTUnwrap(try AdminTests.object(response)["items"] as? [[String: Any]])
                XCTAssertEqual(items.compactMap { $0["username"] as? String }, ["alice", "carol"])
            }

            try await client.execute(uri: "/admin/v1/users/Carol/password", method: .put, headers: AdminTests.headers(json: true),
                                     body: try AdminTests.body(["password": "carol-second"])) { response in
                XCTAssertEqual(response.status, .noContent, String(buffer: response.body))
            }
            let changed = try XCTUnwrap(try UserStore(database: database).find(username: "carol"))
            XCTAssertEqual(changed.ha1SHA256, DigestHash.ha1(username: "carol", realm: AdminTests.realm,
                                                             password: "carol-second", algorithm: .sha256))

            try await client.execute(uri: "/admin/v1/users/carol/hold", method: .put, headers: AdminTests.headers(json: true),
                                     body: try AdminTests.body(["wakeup_hold": false])) { response in
                XCTAssertEqual(response.status, .ok, String(buffer: response.body))
                XCTAssertEqual(try AdminTests.object(response)["wakeup_hold"] as? Bool, false)
            }
            XCTAssertEqual(try UserStore(database: database).find(username: "carol")?.wakeupHold, false)
            try await client.execute(uri: "/admin/v1/users/carol/hold", method: .put, headers: AdminTests.headers(json: true),
                                     body: try AdminTests.body(["wakeup_hold": true])) { response in
                XCTAssertEqual(try AdminTests.object(response)["wakeup_hold"] as? Bool, true)
            }

            try await client.execute(uri: "/admin/v1/users/carol", method: .delete, headers: AdminTests.headers()) { response in
                XCTAssertEqual(response.status, .noContent)
            }
            XCTAssertEqual(try Self.users(database).map(\.username), ["alice"])
            try await client.execute(uri: "/admin/v1/users/carol", method: .delete, headers: AdminTests.headers()) { response in
                try AdminTests.assertError(response, .notFound, field: "username")
            }
        }
        let logged = recorder.recordedWithMetadata.joined(separator: "\n")
        XCTAssertFalse(logged.contains("carol-first") || logged.contains("carol-second"), "a password was logged:\n\(logged)")
        XCTAssertTrue(logged.contains("admin added user"), logged)
    }

    func testBadBodiesAndUnknownUsersAreRefusedAndChangeNothing() async throws {
        try await AdminTests.withApp(maxBodySize: 1024, adminFailuresPerMinute: 100) { client, database in
            try AdminTests.addUser("alice", to: database)
            let before = try Self.users(database)
            let json = AdminTests.headers(json: true)
            var text = AdminTests.headers()
            text[.contentType] = "text/plain"
            let long = String(repeating: "x", count: 257)
            let probes: [(uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer, status: HTTPResponse.Status, field: String?)] = [
                ("/admin/v1/users", .post, json, try AdminTests.body(["password": "pw"]), .badRequest, "username"),
                ("/admin/v1/users", .post, json, try AdminTests.body(["username": "dave"]), .badRequest, "password"),
                ("/admin/v1/users", .post, json, try AdminTests.body(["username": "dave", "password": ""]), .badRequest, "password"),
                ("/admin/v1/users", .post, json, try AdminTests.body(["username": "dave", "password": long]), .badRequest, "password"),
                ("/admin/v1/users", .post, json, try AdminTests.body(["username": "da ve", "password": "pw"]), .badRequest, "username"),
                ("/admin/v1/users", .post, json, try AdminTests.body(["username": "dave@example.com", "password": "pw"]), .badRequest, "username"),
                ("/admin/v1/users", .post, json, try AdminTests.body(["username": 7, "password": "pw"] as [String: Any]), .badRequest, "username"),
                ("/admin/v1/users", .post, json, ByteBuffer(string: "{\"username\": "), .badRequest, nil),
                ("/admin/v1/users", .post, json, try AdminTests.body(["username": "Alice", "password": "pw"]), .conflict, "username"),
                ("/admin/v1/users", .post, text, try AdminTests.body(["username": "dave", "password": "pw"]), .unsupportedMediaType, nil),
                ("/admin/v1/users", .post, json, try AdminTests.body(["username": "dave", "password": String(repeating: "p", count: 2000)]),
                 .contentTooLarge, nil),
                ("/admin/v1/users/alice/password", .put, json, try AdminTests.body([:] as [String: String]), .badRequest, "password"),
                ("/admin/v1/users/alice/password", .put, json, try AdminTests.body(["password": ""]), .badRequest, "password"),
                ("/admin/v1/users/nobody/password", .put, json, try AdminTests.body(["password": "pw"]), .notFound, "username"),
                ("/admin/v1/users/alice/hold", .put, json, try AdminTests.body([:] as [String: String]), .badRequest, "wakeup_hold"),
                ("/admin/v1/users/alice/hold", .put, json, try AdminTests.body(["wakeup_hold": "off"]), .badRequest, "wakeup_hold"),
                ("/admin/v1/users/nobody/hold", .put, json, try AdminTests.body(["wakeup_hold": false]), .notFound, "username"),
                ("/admin/v1/users/nobody", .delete, AdminTests.headers(), ByteBuffer(), .notFound, "username"),
            ]
            for probe in probes {
                try await client.execute(uri: probe.uri, method: probe.method, headers: probe.headers, body: probe.body) { response in
                    try AdminTests.assertError(response, probe.status, field: probe.field)
                }
            }
            XCTAssertEqual(try Self.users(database), before, "no refused request changed a user")
        }
    }
}
