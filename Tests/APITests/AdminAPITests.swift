import API
import Foundation
import Hummingbird
import HummingbirdTesting
import Model
import Registrar
import SQLiteStorage
import XCTest

final class AdminAPITests: XCTestCase {
    // MARK: - Auth

    func testMissingTokenIs401WithBearerChallenge() async throws {
        try await AdminTests.withApp { client, _ in
            for (uri, method) in [("/admin/v1/tuples", HTTPRequest.Method.get), ("/admin/v1/registrations", .get),
                                  ("/admin/v1/tuples/1", .delete)] {
                try await client.execute(uri: uri, method: method, headers: AdminTests.headers(token: nil)) { response in
                    try AdminTests.assertError(response, .unauthorized)
                    XCTAssertEqual(response.headers[.wwwAuthenticate], "Bearer realm=\"sipwake-admin\"")
                }
            }
        }
    }

    func testWrongTokenIs401AndWritesNothing() async throws {
        try await AdminTests.withApp { client, database in
            try AdminTests.addUser("alice", to: database)
            let wrong: [HTTPFields] = [
                AdminTests.headers(token: "s3cr3t-admin-token-7f1c9a0e4b2e", json: true),  // last character differs
                AdminTests.headers(token: String(AdminTests.token.dropLast()), json: true),  // prefix
                AdminTests.headers(token: AdminTests.token + "x", json: true),
                [.authorization: "Basic \(Data("admin:\(AdminTests.token)".utf8).base64EncodedString())",
                 .contentType: "application/json"],
            ]
            for headers in wrong {
                try await client.execute(uri: "/admin/v1/tuples", method: .post, headers: headers,
                                         body: try AdminTests.body(AdminTests.tupleBody())) { response in
                    try AdminTests.assertError(response, .unauthorized)
                    XCTAssertEqual(response.headers[.wwwAuthenticate], "Bearer realm=\"sipwake-admin\"")
                }
            }
            XCTAssertEqual(try TupleStore(database: database).count(), 0)
        }
    }

    func testAdminAPIWithoutConfiguredTokenAnswers404Disabled() async throws {
        for configured in [nil, ""] as [String?] {
          try await AdminTests.withApp(token: configured) { client, _ in
            for headers in [AdminTests.headers(token: nil), AdminTests.headers(token: "anything"),
                            [.authorization: "Bearer "]] {
                try await client.execute(uri: "/admin/v1/tuples", method: .get, headers: headers) { response in
                    try AdminTests.assertError(response, .notFound)
                    XCTAssertEqual(try AdminTests.object(response)["error"] as? String, "admin API disabled")
                    XCTAssertNil(response.headers[.wwwAuthenticate])
                }
            }
            try await client.execute(uri: "/health", method: .get) { XCTAssertEqual($0.status, .ok) }
          }
        }
    }

    // MARK: - CRUD

    func testCreateGetUpdateDeleteRoundTrip() async throws {
        try await AdminTests.withApp { client, database in
            try AdminTests.addUser("alice", to: database)
            var created: [String: Any] = [:]
            try await client.execute(uri: "/admin/v1/tuples", method: .post, headers: AdminTests.headers(json: true),
                                     body: try AdminTests.body(AdminTests.tupleBody(username: "Alice"))) { response in
                XCTAssertEqual(response.status, .created, String(buffer: response.body))
                created = try AdminTests.object(response)
                XCTAssertEqual(response.headers[.location], "/admin/v1/tuples/\(created["id"] as? Int ?? -1)")
            }
            let id = try XCTUnwrap(created["id"] as? Int)
            TupleAssert.json(created, username: "alice", selector: AdminTests.selector,
                             calls: (AdminTests.iosAppID, AdminTests.apnsToken),
                             other: (AdminTests.iosOtherAppID, AdminTests.apnsTokenOther), platform: "ios")
            XCTAssertTrue(created["last_push_at"] is NSNull, "nulls are explicit")
            XCTAssertTrue(created["last_push_status"] is NSNull)
            XCTAssertTrue(created["last_push_result"] is NSNull)
            let createdAt = try XCTUnwrap(created["created_at"] as? String)
            XCTAssertNotNil(ISO8601DateFormatter().date(from: createdAt), createdAt)
            XCTAssertTrue(createdAt.hasSuffix("Z"))

            // What the store holds is what the API said.
            let stored = try XCTUnwrap(try TupleStore(database: database).get(id: Int64(id)))
            XCTAssertEqual(stored.tokenCalls, AdminTests.apnsToken)

            try TupleStore(database: database).recordPushResult(id: Int64(id), sentAt: nil, at: Date(timeIntervalSince1970: 1_800_000_000), status: 200, result: "ok")
            try await client.execute(uri: "/admin/v1/tuples/\(id)", method: .get, headers: AdminTests.headers()) { response in
                XCTAssertEqual(response.status, .ok)
                let json = try AdminTests.object(response)
                XCTAssertEqual(json["token_calls"] as? String, AdminTests.apnsToken)
                XCTAssertEqual(json["last_push_at"] as? String, "2027-01-15T08:00:00Z")
                XCTAssertEqual(json["last_push_status"] as? Int, 200)
                XCTAssertEqual(json["last_push_result"] as? String, "ok")
            }

            // The same device moved to Android, one FCM token in the calls pair.
            let android = AdminTests.tupleBody(calls: (AdminTests.androidAppID, AdminTests.fcmToken), other: nil,
                                               platform: "android")
            try await client.execute(uri: "/admin/v1/tuples/\(id)", method: .put, headers: AdminTests.headers(json: true),
                                     body: try AdminTests.body(android)) { response in
                XCTAssertEqual(response.status, .ok, String(buffer: response.body))
                let json = try AdminTests.object(response)
                XCTAssertEqual(json["id"] as? Int, id)
                XCTAssertEqual(json["token_calls"] as? String, AdminTests.fcmToken)
                XCTAssertTrue(json["token_other"] is NSNull)
                XCTAssertTrue(json["app_id_other"] is NSNull)
                XCTAssertEqual(json["platform"] as? String, "android")
                XCTAssertEqual(json["created_at"] as? String, createdAt)
            }
            try await client.execute(uri: "/admin/v1/tuples/\(id)", method: .get, headers: AdminTests.headers()) { response in
                XCTAssertEqual(try AdminTests.object(response)["token_calls"] as? String, AdminTests.fcmToken)
            }
            try await client.execute(uri: "/admin/v1/tuples/\(id)", method: .delete, headers: AdminTests.headers()) { response in
                XCTAssertEqual(response.status, .noContent)
                XCTAssertEqual(response.body.readableBytes, 0)
            }
            try await client.execute(uri: "/admin/v1/tuples/\(id)", method: .get, headers: AdminTests.headers()) { response in
                try AdminTests.assertError(response, .notFound, field: "id")
            }
            try await client.execute(uri: "/admin/v1/tuples/\(id)", method: .delete, headers: AdminTests.headers()) { response in
                try AdminTests.assertError(response, .notFound, field: "id")
            }
            XCTAssertEqual(try TupleStore(database: database).count(), 0)
        }
    }

    func testListPagesAndFiltersByUser() async throws {
        try await AdminTests.withApp { client, database in
            try AdminTests.addUser("alice", to: database)
            try AdminTests.addUser("bob", to: database)
            var aliceIDs: [Int] = []
            for n in 0..<5 {
                let token = String(repeating: "\(n)", count: 64)
                aliceIDs.append(try await AdminTests.create(client, AdminTests.tupleBody(
                    selector: "\(AdminTests.selector.prefix(40)):0000000\(n)", calls: (AdminTests.iosAppID, token), other: nil)))
            }
            var bobIDs: [Int] = []
            for n in 0..<2 {
                bobIDs.append(try await AdminTests.create(client, AdminTests.tupleBody(
                    username: "bob", selector: "bob-phone-\(n)",
                    calls: (AdminTests.androidAppID, "\(AdminTests.fcmToken)\(n)"), other: nil, platform: "android")))
            }
            try await client.execute(uri: "/admin/v1/tuples", method: .get, headers: AdminTests.headers()) { response in
                let json = try AdminTests.object(response)
                XCTAssertEqual(json["total"] as? Int, 7)
                XCTAssertEqual(json["limit"] as? Int, 100)
                XCTAssertEqual(json["offset"] as? Int, 0)
                XCTAssertEqual((json["items"] as? [[String: Any]])?.compactMap { $0["id"] as? Int }, aliceIDs + bobIDs)
            }
            try await client.execute(uri: "/admin/v1/tuples?user=alice&limit=2&offset=1", method: .get,
                                     headers: AdminTests.headers()) { response in
                let json = try AdminTests.object(response)
                XCTAssertEqual(json["total"] as? Int, 5)
                XCTAssertEqual(json["limit"] as? Int, 2)
                XCTAssertEqual(json["offset"] as? Int, 1)
                XCTAssertEqual((json["items"] as? [[String: Any]])?.compactMap { $0["id"] as? Int }, Array(aliceIDs[1...2]))
            }
            try await client.execute(uri: "/admin/v1/tuples?user=BOB", method: .get, headers: AdminTests.headers()) { response in
                let json = try AdminTests.object(response)
                XCTAssertEqual(json["total"] as? Int, 2)
                XCTAssertEqual((json["items"] as? [[String: Any]])?.compactMap { $0["username"] as? String }, ["bob", "bob"])
            }
            try await client.execute(uri: "/admin/v1/tuples?user=carol", method: .get, headers: AdminTests.headers()) { response in
                let json = try AdminTests.object(response)
                XCTAssertEqual(json["total"] as? Int, 0)
                XCTAssertEqual((json["items"] as? [Any])?.count, 0)
            }
            for (query, field) in [("limit=abc", "limit"), ("limit=1001", "limit"), ("limit=-1", "limit"),
                                   ("offset=-1", "offset"), ("offset=x", "offset")] {
                try await client.execute(uri: "/admin/v1/tuples?\(query)", method: .get, headers: AdminTests.headers()) { response in
                    try AdminTests.assertError(response, .badRequest, field: field)
                }
            }
            try await client.execute(uri: "/admin/v1/tuples?limit=1000", method: .get, headers: AdminTests.headers()) { response in
                XCTAssertEqual(response.status, .ok)
            }
        }
    }

    func testDuplicateUsernameAndSelectorIs409AndStoresNothing() async throws {
        try await AdminTests.withApp { client, database in
            try AdminTests.addUser("alice", to: database)
            let id = try await AdminTests.create(client, AdminTests.tupleBody())
            let again = AdminTests.tupleBody(calls: (AdminTests.androidAppID, AdminTests.fcmToken), other: nil)
            try await client.execute(uri: "/admin/v1/tuples", method: .post, headers: AdminTests.headers(json: true),
                                     body: try AdminTests.body(again)) { response in
                try AdminTests.assertError(response, .conflict, field: "selector")
            }
            // An update onto another row's (username, selector) is a conflict too.
            let second = try await AdminTests.create(client, AdminTests.tupleBody(
                selector: "other-device", calls: (AdminTests.androidAppID, AdminTests.fcmToken), other: nil))
            try await client.execute(uri: "/admin/v1/tuples/\(second)", method: .put, headers: AdminTests.headers(json: true),
                                     body: try AdminTests.body(again)) { response in
                try AdminTests.assertError(response, .conflict, field: "selector")
            }
            let store = TupleStore(database: database)
            XCTAssertEqual(try store.count(), 2)
            XCTAssertEqual(try store.get(id: Int64(id))?.tokenCalls, AdminTests.apnsToken)
            XCTAssertEqual(try store.get(id: Int64(second))?.selector, "other-device")
        }
    }

    func testUnknownUserUnknownTupleAndBadIDs() async throws {
        try await AdminTests.withApp { client, database in
            try AdminTests.addUser("alice", to: database)
            try await client.execute(uri: "/admin/v1/tuples", method: .post, headers: AdminTests.headers(json: true),
                                     body: try AdminTests.body(AdminTests.tupleBody(username: "mallory"))) { response in
                try AdminTests.assertError(response, .badRequest, field: "username")
            }
            try await client.execute(uri: "/admin/v1/tuples/424242", method: .put, headers: AdminTests.headers(json: true),
                                     body: try AdminTests.body(AdminTests.tupleBody())) { response in
                try AdminTests.assertError(response, .notFound, field: "id")
            }
            let id = try await AdminTests.create(client, AdminTests.tupleBody())
            try await client.execute(uri: "/admin/v1/tuples/\(id)", method: .put, headers: AdminTests.headers(json: true),
                                     body: try AdminTests.body(AdminTests.tupleBody(username: "mallory"))) { response in
                try AdminTests.assertError(response, .badRequest, field: "username")
            }
            for bad in ["abc", "0", "-3", "99999999999999999999"] {
                try await client.execute(uri: "/admin/v1/tuples/\(bad)", method: .get, headers: AdminTests.headers()) { response in
                    try AdminTests.assertError(response, .badRequest, field: "id")
                }
            }
            XCTAssertEqual(try TupleStore(database: database).get(id: Int64(id))?.username, "alice")
            XCTAssertEqual(try TupleStore(database: database).count(), 1)
        }
    }

    // MARK: - Bulk deletes

    func testBatchDelete() async throws {
        try await AdminTests.withApp { client, database in
            try AdminTests.addUser("alice", to: database)
            var ids: [Int] = []
            for n in 0..<3 {
                ids.append(try await AdminTests.create(client, AdminTests.tupleBody(
                    selector: "device-\(n)", calls: (AdminTests.iosAppID, String(repeating: "ab\(n)", count: 20)), other: nil)))
            }
            try await client.execute(uri: "/admin/v1/tuples/batch-delete", method: .post, headers: AdminTests.headers(json: true),
                                     body: try AdminTests.body(["ids": [ids[0], ids[2], 987_654]])) { response in
                XCTAssertEqual(response.status, .ok, String(buffer: response.body))
                XCTAssertEqual(try AdminTests.object(response)["deleted"] as? Int, 2)
            }
            let tooMany = Array(1...1001)
            for body in [["ids": []], ["ids": tooMany], ["ids": ["one"]], ["ids": [0]], ["nothing": 1]] as [[String: Any]] {
                try await client.execute(uri: "/admin/v1/tuples/batch-delete", method: .post,
                                         headers: AdminTests.headers(json: true), body: try AdminTests.body(body)) { response in
                    try AdminTests.assertError(response, .badRequest, field: "ids")
                }
            }
            XCTAssertEqual(try TupleStore(database: database).list().map { Int($0.id) }, [ids[1]])
        }
    }

    func testDeleteAllTuplesOfAUser() async throws {
        try await AdminTests.withApp { client, database in
            try AdminTests.addUser("alice", to: database)
            try AdminTests.addUser("bob", to: database)
            _ = try await AdminTests.create(client, AdminTests.tupleBody(selector: "a1", other: nil))
            _ = try await AdminTests.create(client, AdminTests.tupleBody(selector: "a2", calls: nil))
            let bob = try await AdminTests.create(client, AdminTests.tupleBody(
                username: "bob", calls: (AdminTests.androidAppID, AdminTests.fcmToken), other: nil))
            try await client.execute(uri: "/admin/v1/tuples", method: .delete, headers: AdminTests.headers()) { response in
                try AdminTests.assertError(response, .badRequest, field: "user")
            }
            try await client.execute(uri: "/admin/v1/tuples?user=not%20valid", method: .delete,
                                     headers: AdminTests.headers()) { response in
                try AdminTests.assertError(response, .badRequest, field: "user")
            }
            XCTAssertEqual(try TupleStore(database: database).count(), 3)
            try await client.execute(uri: "/admin/v1/tuples?user=alice", method: .delete, headers: AdminTests.headers()) { response in
                XCTAssertEqual(response.status, .ok)
                XCTAssertEqual(try AdminTests.object(response)["deleted"] as? Int, 2)
            }
            try await client.execute(uri: "/admin/v1/tuples?user=alice", method: .delete, headers: AdminTests.headers()) { response in
                XCTAssertEqual(try AdminTests.object(response)["deleted"] as? Int, 0)
            }
            XCTAssertEqual(try TupleStore(database: database).list().map { Int($0.id) }, [bob])
        }
    }

    // MARK: - Registrations

    func testRegistrationsListsUnexpiredBindings() async throws {
        try await AdminTests.withApp { client, database in
            let now = Date()
            let registered = Date(timeIntervalSince1970: 1_790_000_000)
            func binding(_ aor: String, _ contact: String, expiresIn: TimeInterval, instance: String? = nil) -> Binding {
                Binding(aor: aor, contact: contact, instanceID: instance, regID: instance == nil ? nil : 1,
                        callID: "c-\(contact)", cseq: 42, q: instance == nil ? nil : 500,
                        expiresAt: now.addingTimeInterval(expiresIn),
                        path: instance == nil ? [] : ["<sip:edge.example.com;lr>"],
                        source: BindingSource(transport: instance == nil ? .udp : .tls, host: "203.0.113.7", port: 50_123),
                        userAgent: instance == nil ? nil : "Softphone/5.1", registeredAt: registered, updatedAt: registered)
            }
            try BindingStore(database: database).apply([
                .added(binding("alice", "sip:alice@203.0.113.7:50123;transport=tls", expiresIn: 300,
                               instance: "<urn:uuid:6b0c7f2e-8a1d-4b3c-9e5f-0a1b2c3d4e5f>")),
                .added(binding("alice", "sip:alice@198.51.100.2:5060", expiresIn: -10)),
                .added(binding("bob", "sip:bob@192.0.2.9:5070", expiresIn: 600)),
            ])
            try await client.execute(uri: "/admin/v1/registrations", method: .get, headers: AdminTests.headers()) { response in
                XCTAssertEqual(response.status, .ok)
                let items = try XCTUnwrap(try AdminTests.object(response)["items"] as? [[String: Any]])
                XCTAssertEqual(items.compactMap { $0["aor"] as? String }, ["alice", "bob"], "the expired binding is left out")
            }
            try await client.execute(uri: "/admin/v1/registrations?user=Alice", method: .get,
                                     headers: AdminTests.headers()) { response in
                let items = try XCTUnwrap(try AdminTests.object(response)["items"] as? [[String: Any]])
                XCTAssertEqual(items.count, 1)
                let item = try XCTUnwrap(items.first)
                XCTAssertEqual(item["contact"] as? String, "sip:alice@203.0.113.7:50123;transport=tls")
                XCTAssertEqual(item["transport"] as? String, "tls")
                XCTAssertEqual(item["source"] as? String, "203.0.113.7:50123")
                XCTAssertEqual(item["instance"] as? String, "<urn:uuid:6b0c7f2e-8a1d-4b3c-9e5f-0a1b2c3d4e5f>")
                XCTAssertEqual(item["reg_id"] as? Int, 1)
                XCTAssertEqual(item["q"] as? Double, 0.5)
                XCTAssertEqual(item["path"] as? [String], ["<sip:edge.example.com;lr>"])
                XCTAssertEqual(item["user_agent"] as? String, "Softphone/5.1")
                XCTAssertEqual(item["call_id"] as? String, "c-sip:alice@203.0.113.7:50123;transport=tls")
                XCTAssertEqual(item["cseq"] as? Int, 42)
                XCTAssertEqual(item["registered_at"] as? String, "2026-09-21T14:13:20Z")
                XCTAssertEqual(item["updated_at"] as? String, "2026-09-21T14:13:20Z")
                let expiresIn = try XCTUnwrap(item["expires_in"] as? Int)
                XCTAssertTrue((290...300).contains(expiresIn), "\(expiresIn)")
                XCTAssertNotNil(ISO8601DateFormatter().date(from: item["expires_at"] as? String ?? ""))
            }
            try await client.execute(uri: "/admin/v1/registrations?user=bob", method: .get, headers: AdminTests.headers()) { response in
                let item = try XCTUnwrap((try AdminTests.object(response)["items"] as? [[String: Any]])?.first)
                XCTAssertTrue(item["instance"] is NSNull)
                XCTAssertTrue(item["q"] is NSNull)
                XCTAssertTrue(item["user_agent"] is NSNull)
                XCTAssertEqual(item["path"] as? [String], [])
            }
        }
    }

    func testDeleteOneBindingByContactOrAllOfAUser() async throws {
        try await AdminTests.withApp { client, database in
            let now = Date()
            func binding(_ aor: String, _ contact: String) -> Binding {
                Binding(aor: aor, contact: contact, callID: "c-\(contact)", cseq: 1, expiresAt: now.addingTimeInterval(600),
                        source: BindingSource(transport: .udp, host: "203.0.113.7", port: 5060),
                        registeredAt: now, updatedAt: now)
            }
            let store = BindingStore(database: database)
            try store.apply([
                .added(binding("alice", "sip:alice@203.0.113.7:5060")),
                .added(binding("alice", "sip:alice@203.0.113.8:5060;transport=tcp")),
                .added(binding("bob", "sip:bob@192.0.2.9:5070")),
                .added(binding("bob", "sip:bob@192.0.2.10:5070")),
            ])
            try await client.execute(uri: "/admin/v1/registrations", method: .delete, headers: AdminTests.headers(token: nil)) { response in
                try AdminTests.assertError(response, .unauthorized)
            }
            for uri in ["/admin/v1/registrations", "/admin/v1/registrations?user=",
                        "/admin/v1/registrations?contact=sip:alice@203.0.113.7:5060"] {
                try await client.execute(uri: uri, method: .delete, headers: AdminTests.headers()) { response in
                    try AdminTests.assertError(response, .badRequest, field: "user")
                }
            }
            try await client.execute(uri: "/admin/v1/registrations?user=alice&contact=", method: .delete,
                                     headers: AdminTests.headers()) { response in
                try AdminTests.assertError(response, .badRequest, field: "contact")
            }
            try await client.execute(uri: "/admin/v1/registrations?user=alice&contact=sip:alice@203.0.113.99:5060",
                                     method: .delete, headers: AdminTests.headers()) { response in
                try AdminTests.assertError(response, .notFound, field: "contact")
                XCTAssertEqual(try AdminTests.object(response)["error"] as? String,
                               "no binding of alice with contact sip:alice@203.0.113.99:5060")
            }
            XCTAssertEqual(try store.count(), 4, "the refused requests deleted nothing")
            try await client.execute(uri: "/admin/v1/registrations?user=Alice&contact=sip%3Aalice%40203.0.113.8%3A5060%3Btransport%3Dtcp",
                                     method: .delete, headers: AdminTests.headers()) { response in
                XCTAssertEqual(response.status, .noContent)
            }
            XCTAssertEqual(try store.list(aor: "alice").map(\.contact), ["sip:alice@203.0.113.7:5060"])
            try await client.execute(uri: "/admin/v1/registrations?user=bob", method: .delete, headers: AdminTests.headers()) { response in
                XCTAssertEqual(response.status, .ok)
                XCTAssertEqual(try AdminTests.object(response)["deleted"] as? Int, 2)
            }
            try await client.execute(uri: "/admin/v1/registrations?user=bob", method: .delete, headers: AdminTests.headers()) { response in
                XCTAssertEqual(try AdminTests.object(response)["deleted"] as? Int, 0)
            }
            XCTAssertEqual(try store.list(aor: nil).map(\.aor), ["alice"])
            XCTAssertEqual(try store.deletionsHead(), 3, "each deleted binding is in the feed the SIP server reads")
        }
    }

    // MARK: - Bad input

    func testBadInputIsRefusedAndStoresNothing() async throws {
        try await AdminTests.withApp(maxBodySize: 8192) { client, database in
            try AdminTests.addUser("alice", to: database)
            let json = AdminTests.headers(json: true)
            let valid = try AdminTests.body(AdminTests.tupleBody())
            func post(_ body: ByteBuffer, headers: HTTPFields = json, _ status: HTTPResponse.Status,
                      field: String? = nil, line: UInt = #line) async throws {
                try await client.execute(uri: "/admin/v1/tuples", method: .post, headers: headers, body: body) { response in
                    try AdminTests.assertError(response, status, field: field, line: line)
                }
            }
            try await post(ByteBuffer(string: "{\"username\": \"alice\", \"selector\": "), .badRequest)
            try await post(ByteBuffer(string: "[1, 2]"), .badRequest)
            try await post(ByteBuffer(string: ""), .badRequest)
            try await post(valid, headers: AdminTests.headers(), .unsupportedMediaType)
            var form = AdminTests.headers()
            form[.contentType] = "application/x-www-form-urlencoded"
            try await post(ByteBuffer(string: "username=alice&selector=x&token_calls=y&app_id_calls=z"),
                           headers: form, .unsupportedMediaType)
            var charset = AdminTests.headers()
            charset[.contentType] = "text/plain; charset=utf-8"
            try await post(valid, headers: charset, .unsupportedMediaType)
            var big = AdminTests.tupleBody()
            big["padding"] = String(repeating: "x", count: 9000)
            try await post(try AdminTests.body(big), .contentTooLarge)
            try await post(try AdminTests.body(AdminTests.tupleBody(calls: nil, other: nil)), .badRequest, field: "token_calls")
            var halfPair = AdminTests.tupleBody(other: nil)
            halfPair["app_id_calls"] = NSNull()
            try await post(try AdminTests.body(halfPair), .badRequest, field: "app_id_calls")
            halfPair = AdminTests.tupleBody()
            halfPair.removeValue(forKey: "token_other")
            try await post(try AdminTests.body(halfPair), .badRequest, field: "token_other")
            var missing = AdminTests.tupleBody()
            missing.removeValue(forKey: "selector")
            try await post(try AdminTests.body(missing), .badRequest, field: "selector")
            var wrongType = AdminTests.tupleBody()
            wrongType["token_calls"] = 12345
            try await post(try AdminTests.body(wrongType), .badRequest, field: "token_calls")
            try await post(try AdminTests.body(AdminTests.tupleBody(platform: "windows-phone")), .badRequest, field: "platform")
            try await post(try AdminTests.body(AdminTests.tupleBody(selector: "")), .badRequest, field: "selector")
            try await post(try AdminTests.body(AdminTests.tupleBody(selector: "line\nbreak")), .badRequest, field: "selector")
            try await post(try AdminTests.body(AdminTests.tupleBody(
                calls: (AdminTests.iosAppID, String(repeating: "f", count: 4097)))), .badRequest, field: "token_calls")
            try await post(try AdminTests.body(AdminTests.tupleBody(username: "al ice")), .badRequest, field: "username")
            XCTAssertEqual(try TupleStore(database: database).count(), 0, "no refused request stored anything")

            // PUT refuses the same way and leaves the row as it was.
            let id = try await AdminTests.create(client, AdminTests.tupleBody())
            var half = AdminTests.tupleBody()
            half["token_calls"] = NSNull()
            try await client.execute(uri: "/admin/v1/tuples/\(id)", method: .put, headers: json,
                                     body: try AdminTests.body(half)) { response in
                try AdminTests.assertError(response, .badRequest, field: "token_calls")
            }
            try await client.execute(uri: "/admin/v1/tuples/\(id)", method: .put, headers: json,
                                     body: ByteBuffer(string: "{not json")) { response in
                try AdminTests.assertError(response, .badRequest)
            }
            XCTAssertEqual(try TupleStore(database: database).get(id: Int64(id))?.tokenCalls, AdminTests.apnsToken)
        }
    }
}
