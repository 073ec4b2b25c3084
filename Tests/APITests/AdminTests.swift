import API
import Foundation
import Model
import Hummingbird
import HummingbirdTesting
import Logging
import Prometheus
import Registrar
import SQLiteStorage
import XCTest

/// What the admin API tests share: a live app on loopback over a real SQLite
/// file in a temporary directory, request helpers and real-looking tokens.
enum AdminTests {
    static let token = "s3cr3t-admin-token-7f1c9a0e4b2d"
    static let realm = "sip.example.com"

    /// An APNs VoIP device token: 64 hex digits.
    static let apnsToken = "5f3a8c1e9b7d2a4f6c0e8b1d3a5f7c9e2b4d6f8a0c1e3b5d7f9a2c4e6b8d0f1a"
    static let apnsTokenOther = "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90"
    /// An FCM registration token.
    static let fcmToken = "dQw4w9WgXcQ:APA91bHun4MxP5egoKMwt2KZFBaFUH-1RYqx1qWzJ9dH8ZPgL0kBE0yTBg8vA5zQ0i4Pt1XsoU2E6P_j4RG5N3oKL7G5nI8lPn8bNwx3Q3qvJu8mJ3YHzFwxLkR0DNsYk7tJZUEWGf0Q"
    static let selector = "12869E0E6E553673C54F29105A0647204C416A2A:7C3A0D14"
    static let iosAppID = "com.example.softphone.voip"
    static let iosOtherAppID = "com.example.softphone"
    static let androidAppID = "com.example.softphone.android"

    /// Runs `test` against a live app; the database file is deleted afterwards.
    static func withApp(
        token: String? = AdminTests.token, maxBodySize: Int = 16 * 1024, adminFailuresPerMinute: Int = 5,
        pushRouting: PushRouting = PushRouting(), registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(),
        exposition: Bool = true,
        liveCalls: (@Sendable () async -> [CallRecord]?)? = { [AdminTests.liveCall] },
        clock: @escaping @Sendable () -> Date = { Date() }, logger: Logger = Logger(label: "admin-test"),
        _ test: @Sendable (any TestClientProtocol, SipwakeDatabase) async throws -> Void
    ) async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("admin-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let database = try SipwakeDatabase(path: dir.appendingPathComponent("db.sqlite").path)
        defer { try? database.close() }
        let settings = APISettings(realm: realm, adminToken: token, maxBodySize: maxBodySize,
                                   adminFailuresPerMinute: adminFailuresPerMinute, nonceSecret: [7, 7, 7],
                                   pushRouting: pushRouting)
        var text: (@Sendable () -> String)?
        if exposition { text = { @Sendable in registry.emitToString() } }
        let router = APIRouter.make(stores: database.stores, settings: settings, logger: logger,
                                    metrics: PrometheusMetricsFactory(registry: registry), exposition: text,
                                    liveCalls: liveCalls, clock: clock)
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in try await test(client, database) }
    }

    /// The call a test app's `live-calls` lists by default: ringing, no outcome yet.
    static let liveCall = CallRecord(id: "live-1", pairingID: "pair-live", callID: "live-1@pbx.example.com",
                                     callee: "alice", caller: "sip:bob@example.com",
                                     startedAt: Date(timeIntervalSince1970: 1_800_000_000))

    static func addUser(_ name: String, to database: SipwakeDatabase) throws {
        _ = try UserStore(database: database).add(
            username: name, realm: realm,
            ha1MD5: DigestHash.ha1(username: name, realm: realm, password: "pw-\(name)", algorithm: .md5),
            ha1SHA256: DigestHash.ha1(username: name, realm: realm, password: "pw-\(name)", algorithm: .sha256))
    }

    static func headers(token: String? = AdminTests.token, json: Bool = false) -> HTTPFields {
        var fields = HTTPFields()
        if let token { fields[.authorization] = "Bearer \(token)" }
        if json { fields[.contentType] = "application/json" }
        return fields
    }

    static func body(_ object: Any) throws -> ByteBuffer {
        ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: object))
    }

    /// A request body for a tuple: an iOS device with both pairs unless told otherwise.
    static func tupleBody(
        username: String = "alice", selector: String = AdminTests.selector,
        calls: (String, String)? = (AdminTests.iosAppID, AdminTests.apnsToken),
        other: (String, String)? = (AdminTests.iosOtherAppID, AdminTests.apnsTokenOther),
        platform: String? = "ios"
    ) -> [String: Any] {
        [
            "username": username, "selector": selector,
            "app_id_calls": calls?.0 ?? NSNull(), "token_calls": calls?.1 ?? NSNull(),
            "app_id_other": other?.0 ?? NSNull(), "token_other": other?.1 ?? NSNull(),
            "platform": platform ?? NSNull(),
        ]
    }

    static func object(_ response: TestResponse, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let value = try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView))
        return try XCTUnwrap(value as? [String: Any], "not a JSON object: \(String(buffer: response.body))",
                             file: file, line: line)
    }

    /// POSTs a tuple and returns its id; fails the test unless the answer is 201.
    static func create(_ client: any TestClientProtocol, _ body: [String: Any],
                       file: StaticString = #filePath, line: UInt = #line) async throws -> Int {
        try await client.execute(uri: "/admin/v1/tuples", method: .post, headers: headers(json: true),
                                 body: try AdminTests.body(body)) { response in
            XCTAssertEqual(response.status, .created, String(buffer: response.body), file: file, line: line)
            return try XCTUnwrap(try object(response)["id"] as? Int, file: file, line: line)
        }
    }

    /// Asserts a JSON error answer with that status and, when given, that field.
    static func assertError(_ response: TestResponse, _ status: HTTPResponse.Status, field: String? = nil,
                            file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(response.status, status, String(buffer: response.body), file: file, line: line)
        XCTAssertEqual(response.headers[.contentType], "application/json", file: file, line: line)
        let json = try object(response, file: file, line: line)
        XCTAssertNotNil(json["error"] as? String, file: file, line: line)
        if let field {
            XCTAssertEqual(json["field"] as? String, field, file: file, line: line)
        }
    }
}
