@testable import API
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Model
import Prometheus
import Registrar
import SQLiteStorage
import XCTest

/// The Push Token Reporter and Account Removal Reporter over real HTTP on
/// loopback, with a real SQLite file. Auth tests are in ReporterAuthTests.swift,
/// bad input in ReporterBadInputTests.swift (extensions of this class).
final class ReporterTests: XCTestCase {
    static let realm = "sip.example.com"
    static let selector = "12869E0E6E553673C54F29105A0647204C416A2A:7C3A0D14"
    static let selector2 = "9F86D081884C7D659A2FEAA0C55AD015A3BF4F1B:2B7E1516"
    /// APNs VoIP token: 32 bytes in hex.
    static let apnsToken = "8c7e52d3a4f1b6e09d2c3b4a5f6e7d8c9b0a1f2e3d4c5b6a7980f1e2d3c4b5a6"
    static let apnsToken2 = "f00dfeed4a5b6c7d8e9f0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f"
    /// FCM registration token: instance id, ':', then ~150 characters.
    static let fcmToken = "dQw4w9WgXcQ:APA91bHun4MxP5egoKMwt2KZFBaFUH-1RYqx4_Bqb0q9GVB3bSUZi4FPdvd1kTj7dXrp8UNAE_kMJmXDyoJGHAFUvBaQ8q3RKmY7hh1k2hR5iNnw9pRBVDxKp4B3G6vrN5S1OqZ4qWmnRd2hXcsoWbG2R_7pTAkXh"
    static let voipAppID = "com.acrobits.softphone.voip"
    static let appID = "com.acrobits.softphone"

    /// A server on 127.0.0.1 with its database, two users (alice, bob).
    struct Fixture {
        let database: SipwakeDatabase
        let tuples: TupleStore
        let users: UserStore
    }

    enum RouterKind {
        /// The reporter routes on `APIRequestContext`: failed logins counted per address.
        case reporter
        /// `APIRouter.make`, as `sipwake serve` builds it.
        case production
    }

    func withServer(failedLoginsPerMinute: Int = 10, maxBodySize: Int = 16 * 1024, nonceMaxUses: Int = 100,
                    pushRouting: PushRouting = PushRouting(), router kind: RouterKind = .reporter,
                    clock: @escaping @Sendable () -> Date = { Date() },
                    logger: Logger = Logger(label: "reporter-test"),
                    registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(),
                    _ body: @escaping @Sendable (any TestClientProtocol, Fixture) async throws -> Void) async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reporter-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let database = try SipwakeDatabase(path: dir.appendingPathComponent("db.sqlite").path)
        defer { try? database.close() }
        let users = UserStore(database: database)
        for (name, password) in [("alice", "alice-secret"), ("bob", "bob-secret")] {
            try users.add(username: name, realm: Self.realm,
                          ha1MD5: DigestHash.ha1(username: name, realm: Self.realm, password: password, algorithm: .md5),
                          ha1SHA256: DigestHash.ha1(username: name, realm: Self.realm, password: password, algorithm: .sha256))
        }
        let settings = APISettings(realm: Self.realm, algorithms: [.sha256, .md5], adminToken: "admin",
                                   maxBodySize: maxBodySize, failedLoginsPerMinute: failedLoginsPerMinute,
                                   nonceSecret: Array("reporter-test-secret".utf8), nonceMaxUses: nonceMaxUses,
                                   pushRouting: pushRouting)
        let fixture = Fixture(database: database, tuples: TupleStore(database: database), users: users)
        let configuration = ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0))
        switch kind {
        case .reporter:
            let router = Router(context: APIRequestContext.self)
            ReporterRoutes(stores: database.stores, settings: settings, logger: logger,
                           metrics: APIMetrics(factory: PrometheusMetricsFactory(registry: registry)), clock: clock)
                .register(on: router)
            try await Application(router: router, configuration: configuration).test(.live) { try await body($0, fixture) }
        case .production:
            let router = APIRouter.make(stores: database.stores, settings: settings, logger: logger,
                                        metrics: PrometheusMetricsFactory(registry: registry), clock: clock)
            try await Application(router: router, configuration: configuration).test(.live) { try await body($0, fixture) }
        }
    }

    // MARK: - Request helpers

    static func form(_ pairs: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return pairs.map { name, value in
            "\(name.addingPercentEncoding(withAllowedCharacters: allowed)!)=\(value.addingPercentEncoding(withAllowedCharacters: allowed)!)"
        }.joined(separator: "&")
    }

    static func postForm(_ client: any TestClientProtocol, _ path: String, _ pairs: [(String, String)],
                         headers extra: HTTPFields = [:]) async throws -> TestResponse {
        var headers = extra
        headers[.contentType] = "application/x-www-form-urlencoded"
        return try await client.execute(uri: path, method: .post, headers: headers, body: ByteBuffer(string: form(pairs)))
    }

    static func postJSON(_ client: any TestClientProtocol, _ path: String, _ object: [String: String]) async throws -> TestResponse {
        let data = try JSONSerialization.data(withJSONObject: object)
        return try await client.execute(uri: path, method: .post, headers: [.contentType: "application/json"],
                                        body: ByteBuffer(bytes: data))
    }

    static func json(_ response: TestResponse) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(buffer: response.body))
        return try XCTUnwrap(object as? [String: Any], "not a JSON object: \(String(buffer: response.body))")
    }

    static func tuple(_ response: TestResponse) throws -> [String: Any] {
        try XCTUnwrap(json(response)["tuple"] as? [String: Any])
    }

    /// The two-pair report of an iPhone, as the form template in docs/reporter.md sends it.
    static func iPhoneReport(user: String = "alice", password: String = "alice-secret", selector: String = selector,
                             voip: String = apnsToken, other: String = apnsToken2) -> [(String, String)] {
        [("username", user), ("password", password), ("selector", selector),
         ("pushTokenIncomingCall", voip), ("pushappid_incoming_call", voipAppID),
         ("pushTokenOther", other), ("pushappid_other", appID)]
    }

    // MARK: - Formats

    func testGETQueryStringWithTwoPairsStoresTuple() async throws {
        try await withServer { client, fixture in
            let query = Self.form(Self.iPhoneReport() + [("platform", "ios")])
            let response = try await client.execute(uri: "/push/report?\(query)", method: .get)
            XCTAssertEqual(response.status, .ok, String(buffer: response.body))
            XCTAssertEqual(response.headers[.contentType], "application/json")
            let body = try Self.json(response)
            XCTAssertEqual(body["status"] as? String, "ok")
            XCTAssertEqual(body["created"] as? Bool, true)
            let tuple = try Self.tuple(response)
            TupleAssert.json(tuple, username: "alice", selector: Self.selector, calls: (Self.voipAppID, Self.apnsToken),
                             other: (Self.appID, Self.apnsToken2), platform: "ios")
            let seen = try XCTUnwrap(tuple["last_seen_at"] as? String)
            XCTAssertNotNil(ISO8601DateFormatter().date(from: seen), seen)
            XCTAssertEqual(tuple["created_at"] as? String, seen, "the same tuple JSON as the admin API")
            XCTAssertTrue(tuple["last_push_result"] is NSNull)

            let stored = try fixture.tuples.list(username: "alice")
            XCTAssertEqual(stored.count, 1)
            XCTAssertEqual(stored.first?.id, (tuple["id"] as? Int).map(Int64.init))
            XCTAssertEqual(stored.first?.tokenCalls, Self.apnsToken)
            XCTAssertEqual(stored.first?.tokenOther, Self.apnsToken2)
            XCTAssertEqual(stored.first?.platform, .ios)
        }
    }

    func testPOSTFormWithOnePairStoresItAsBothPairs() async throws {
        try await withServer { client, fixture in
            let response = try await Self.postForm(client, "/push/report", [
                ("account[username]", "alice"), ("account[password]", "alice-secret"), ("selector", Self.selector),
                ("pushToken", Self.fcmToken), ("pushappid", Self.appID), ("platform", "android"),
            ])
            XCTAssertEqual(response.status, .ok, String(buffer: response.body))
            let stored = try XCTUnwrap(try fixture.tuples.list(username: "alice").first)
            TupleAssert.stored(stored, calls: (Self.appID, Self.fcmToken), other: (Self.appID, Self.fcmToken),
                               platform: .android)
        }
    }

    func testPOSTJSONWithTwoPairsInShortForm() async throws {
        try await withServer { client, fixture in
            let response = try await Self.postJSON(client, "/push/report", [
                "username": "alice", "password": "alice-secret", "selector": Self.selector,
                "token_calls": Self.apnsToken, "appId_calls": Self.voipAppID,
                "token_msgs": Self.apnsToken2, "appId_msgs": Self.appID,
            ])
            XCTAssertEqual(response.status, .ok, String(buffer: response.body))
            let stored = try XCTUnwrap(try fixture.tuples.list(username: "alice").first)
            TupleAssert.stored(stored, calls: (Self.voipAppID, Self.apnsToken), other: (Self.appID, Self.apnsToken2),
                               platform: nil)
        }
    }

    func testPOSTJSONWithOnePairInShortFormAndTemplateNames() async throws {
        try await withServer { client, fixture in
            let response = try await Self.postJSON(client, "/push/report", [
                "account[username]": "alice", "account[password]": "alice-secret", "selector": Self.selector,
                "token": Self.fcmToken, "appId": Self.appID,
                // An app with one pair substitutes empty strings for the others.
                "pushTokenIncomingCall": "", "pushappid_incoming_call": "",
            ])
            XCTAssertEqual(response.status, .ok, String(buffer: response.body))
            let tuple = try Self.tuple(response)
            XCTAssertEqual(tuple["token_calls"] as? String, Self.fcmToken)
            XCTAssertEqual(tuple["token_other"] as? String, Self.fcmToken)
            XCTAssertTrue(tuple["platform"] is NSNull, "platform is null, not missing")
            XCTAssertEqual(try fixture.tuples.count(username: "alice"), 1)
        }
    }

    func testOnlyTheOtherPairIsAccepted() async throws {
        try await withServer { client, fixture in
            let response = try await Self.postForm(client, "/push/report", [
                ("username", "alice"), ("password", "alice-secret"), ("selector", Self.selector),
                ("pushTokenOther", Self.apnsToken2), ("pushappid_other", Self.appID),
            ])
            XCTAssertEqual(response.status, .ok, String(buffer: response.body))
            let stored = try XCTUnwrap(try fixture.tuples.list(username: "alice").first)
            XCTAssertNil(stored.tokenCalls)
            XCTAssertEqual(stored.tokenOther, Self.apnsToken2)
        }
    }

    func testProductionRouterServesTheReporter() async throws {
        try await withServer(router: .production) { client, fixture in
            let response = try await Self.postForm(client, "/push/report", Self.iPhoneReport())
            XCTAssertEqual(response.status, .ok, String(buffer: response.body))
            XCTAssertEqual(try fixture.tuples.count(username: "alice"), 1)
        }
    }

    // MARK: - Upsert, devices, moves

    func testRepeatedReportOfSameSelectorUpdatesTheTuple() async throws {
        try await withServer { client, fixture in
            let first = try await Self.postForm(client, "/push/report", Self.iPhoneReport())
            XCTAssertEqual(first.status, .ok)
            let firstTuple = try Self.tuple(first)
            let before = try XCTUnwrap(try fixture.tuples.list(username: "alice").first)
            try await Task.sleep(for: .milliseconds(20))

            let newVoip = String(Self.apnsToken.reversed())
            let second = try await Self.postForm(client, "/push/report", Self.iPhoneReport(voip: newVoip))
            XCTAssertEqual(second.status, .ok)
            XCTAssertEqual(try Self.json(second)["created"] as? Bool, false)
            XCTAssertEqual(try Self.tuple(second)["id"] as? Int, firstTuple["id"] as? Int)

            let stored = try fixture.tuples.list(username: "alice")
            XCTAssertEqual(stored.count, 1)
            XCTAssertEqual(stored[0].tokenCalls, newVoip)
            XCTAssertEqual(stored[0].createdAt, before.createdAt)
            XCTAssertGreaterThan(stored[0].lastSeenAt, before.lastSeenAt)
        }
    }

    func testSeveralDevicesOfOneAccountAreAllKept() async throws {
        try await withServer { client, fixture in
            let iPhone = try await Self.postForm(client, "/push/report", Self.iPhoneReport())
            XCTAssertEqual(iPhone.status, .ok)
            let android = try await Self.postJSON(client, "/push/report", [
                "username": "alice", "password": "alice-secret", "selector": Self.selector2,
                "pushToken": Self.fcmToken, "pushappid": Self.appID, "platform": "android",
            ])
            XCTAssertEqual(android.status, .ok, String(buffer: android.body))
            let stored = try fixture.tuples.list(username: "alice")
            XCTAssertEqual(stored.map(\.selector), [Self.selector, Self.selector2])
            XCTAssertEqual(stored.map(\.tokenCalls), [Self.apnsToken, Self.fcmToken])
        }
    }

    func testTheSameSlotReportedOnAnotherAccountMovesThere() async throws {
        try await withServer { client, fixture in
            let bob = try await Self.postForm(client, "/push/report", [
                ("username", "bob"), ("password", "bob-secret"), ("selector", Self.selector),
                ("pushToken", Self.fcmToken), ("pushappid", Self.appID),
            ])
            XCTAssertEqual(bob.status, .ok)
            XCTAssertEqual(try fixture.tuples.count(username: "bob"), 1)

            // The slot is set to alice's account: same app token, same selector.
            let alice = try await Self.postForm(client, "/push/report", [
                ("username", "alice"), ("password", "alice-secret"), ("selector", Self.selector),
                ("pushToken", Self.fcmToken), ("pushappid", Self.appID),
            ])
            XCTAssertEqual(alice.status, .ok)
            XCTAssertEqual(try fixture.tuples.count(username: "bob"), 0)
            XCTAssertEqual(try fixture.tuples.list(username: "alice").map(\.tokenCalls), [Self.fcmToken])
        }
    }

    func testTwoAccountsOnOneDeviceAreBothKept() async throws {
        try await withServer { client, fixture in
            for (user, password, selector) in [("bob", "bob-secret", Self.selector), ("alice", "alice-secret", Self.selector2)] {
                let report = try await Self.postForm(client, "/push/report", [
                    ("username", user), ("password", password), ("selector", selector),
                    ("pushToken", Self.fcmToken), ("pushappid", Self.appID),
                ])
                XCTAssertEqual(report.status, .ok, String(buffer: report.body))
            }
            XCTAssertEqual(try fixture.tuples.list(username: "bob").map(\.selector), [Self.selector])
            XCTAssertEqual(try fixture.tuples.list(username: "alice").map(\.selector), [Self.selector2])
        }
    }

    // MARK: - Apps and providers

    /// An app built without the Acrobits SDK reports its APNs VoIP token and
    /// its FCM token as plain JSON; each tuple takes its app's provider.
    func testListedAppsTakeTheirProviderFromTheAppID() async throws {
        let routing = PushRouting(apps: ["com.example.phone": "apns", "com.example.phone.android": "fcm"])
        try await withServer(pushRouting: routing) { client, fixture in
            let ios = try await Self.postJSON(client, "/push/report", [
                "username": "alice", "password": "alice-secret", "selector": Self.selector,
                "pushTokenIncomingCall": "a1b2c3d4e5f6", "pushappid_incoming_call": "com.example.phone",
                "pushTokenOther": "f6e5d4c3b2a1", "pushappid_other": "com.example.phone", "platform": "ios",
            ])
            XCTAssertEqual(ios.status, .ok, String(buffer: ios.body))
            let android = try await Self.postJSON(client, "/push/report", [
                "username": "alice", "password": "alice-secret", "selector": Self.selector2,
                "pushToken": Self.fcmToken, "pushappid": "com.example.phone.android", "provider": "fcm",
            ])
            XCTAssertEqual(android.status, .ok, String(buffer: android.body))
            XCTAssertEqual(try fixture.tuples.list(username: "alice").map(\.provider), ["apns", "fcm"])
        }
    }

    func testAProviderThatDoesNotReachTheAppOrAnUnreachableAppIsRefused() async throws {
        let routing = PushRouting(apps: ["com.example.phone": "apns"], gatewayProvider: nil)
        try await withServer(pushRouting: routing) { client, fixture in
            let wrong = try await Self.postForm(client, "/push/report", [
                ("username", "alice"), ("password", "alice-secret"), ("selector", Self.selector),
                ("pushToken", "a1b2c3d4e5f6"), ("pushappid", "com.example.phone"), ("provider", "fcm"),
            ])
            XCTAssertEqual(wrong.status, .badRequest)
            XCTAssertEqual(try Self.json(wrong)["field"] as? String, "provider")
            let unknown = try await Self.postForm(client, "/push/report", [
                ("username", "alice"), ("password", "alice-secret"), ("selector", Self.selector),
                ("pushToken", Self.fcmToken), ("pushappid", Self.appID),
            ])
            XCTAssertEqual(unknown.status, .badRequest)
            let json = try Self.json(unknown)
            XCTAssertEqual(json["field"] as? String, "pushappid_incoming_call")
            XCTAssertTrue((json["error"] as? String)?.contains("app id '\(Self.appID)' has no push provider") == true)
            XCTAssertEqual(try fixture.tuples.count(username: "alice"), 0)
        }
    }

    func testAnUnauthenticatedReportLearnsNothingAboutTheAppsThisServerPushesTo() async throws {
        let routing = PushRouting(apps: ["com.example.phone": "apns"], gatewayProvider: nil)
        try await withServer(pushRouting: routing) { client, fixture in
            for appID in ["com.example.phone", Self.appID] {
                let response = try await Self.postForm(client, "/push/report", [
                    ("username", "alice"), ("password", "wrong"), ("selector", Self.selector),
                    ("pushToken", Self.fcmToken), ("pushappid", appID), ("provider", "fcm"),
                ])
                XCTAssertEqual(response.status, .unauthorized, String(buffer: response.body))
                XCTAssertFalse(String(buffer: response.body).contains("app id"), String(buffer: response.body))
                XCTAssertFalse(String(buffer: response.body).contains("apns"), String(buffer: response.body))
            }
            XCTAssertEqual(try fixture.tuples.count(username: "alice"), 0)
        }
    }

    // MARK: - Removal

    func testRemovalDeletesThatDeviceAndIsIdempotent() async throws {
        try await withServer { client, fixture in
            let first = try await Self.postForm(client, "/push/report", Self.iPhoneReport())
            XCTAssertEqual(first.status, .ok)
            let second = try await Self.postForm(client, "/push/report", Self.iPhoneReport(
                selector: Self.selector2, voip: "a1" + Self.apnsToken.dropFirst(2), other: "b2" + Self.apnsToken2.dropFirst(2)))
            XCTAssertEqual(second.status, .ok)
            XCTAssertEqual(try fixture.tuples.count(username: "alice"), 2)

            let removal = Self.form([("username", "alice"), ("password", "alice-secret"), ("selector", Self.selector)])
            let removed = try await client.execute(uri: "/push/remove?\(removal)", method: .get)
            XCTAssertEqual(removed.status, .ok, String(buffer: removed.body))
            XCTAssertEqual(try Self.json(removed)["removed"] as? Bool, true)
            XCTAssertEqual(try fixture.tuples.list(username: "alice").map(\.selector), [Self.selector2])

            let again = try await Self.postJSON(client, "/push/remove", [
                "account[username]": "alice", "account[password]": "alice-secret", "selector": Self.selector,
            ])
            XCTAssertEqual(again.status, .ok, String(buffer: again.body))
            XCTAssertEqual(try Self.json(again)["removed"] as? Bool, false)
            XCTAssertEqual(try fixture.tuples.count(username: "alice"), 1)
        }
    }

    func testRemovalWithWrongPasswordRemovesNothing() async throws {
        try await withServer { client, fixture in
            let report = try await Self.postForm(client, "/push/report", Self.iPhoneReport())
            XCTAssertEqual(report.status, .ok)
            let response = try await Self.postForm(client, "/push/remove", [
                ("username", "alice"), ("password", "wrong"), ("selector", Self.selector),
            ])
            XCTAssertEqual(response.status, .unauthorized)
            XCTAssertEqual(try fixture.tuples.count(username: "alice"), 1)
        }
    }
}
