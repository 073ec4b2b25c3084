import API
import Foundation
import Hummingbird
import HummingbirdTesting
import Model
import Registrar
import SQLiteStorage
import XCTest

/// docs/openapi.json against the live app: every admin operation the spec
/// documents is called over HTTP, answers a status the spec lists for it, and
/// its 2xx body holds every property the spec marks required; every route the
/// app serves is in the spec.
final class OpenAPIConformanceTests: XCTestCase {
    /// The routes the app registers (APIRouter, AdminRoutes, ReporterRoutes).
    /// A route added to the app goes here and into docs/openapi.json.
    static let servedRoutes: Set<String> = [
        "GET /health",
        "GET /admin/v1/tuples", "POST /admin/v1/tuples", "DELETE /admin/v1/tuples",
        "POST /admin/v1/tuples/batch-delete",
        "GET /admin/v1/tuples/{id}", "PUT /admin/v1/tuples/{id}", "DELETE /admin/v1/tuples/{id}",
        "GET /admin/v1/registrations", "DELETE /admin/v1/registrations",
        "GET /admin/v1/users", "POST /admin/v1/users", "DELETE /admin/v1/users/{username}",
        "PUT /admin/v1/users/{username}/password", "PUT /admin/v1/users/{username}/hold",
        "GET /admin/v1/calls", "GET /admin/v1/calls/{id}", "GET /admin/v1/live-calls",
        "GET /push/report", "POST /push/report", "GET /push/remove", "POST /push/remove",
    ]

    static let methods = ["get", "put", "post", "delete", "patch", "head", "options"]

    /// docs/openapi.json, found from this file's path. `Data` is Sendable,
    /// so a live test passes it into its client closure and parses it there.
    static func specData() throws -> Data {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/openapi.json")
        return try Data(contentsOf: url)
    }

    static func parse(_ data: Data) throws -> [String: Any] {
        let spec = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any], "not a JSON object")
        XCTAssertEqual(spec["openapi"] as? String, "3.0.3")
        return spec
    }

    func loadSpec() throws -> [String: Any] {
        try Self.parse(try Self.specData())
    }

    /// "METHOD /path" → operation object, for every operation in the spec.
    static func operations(_ spec: [String: Any]) throws -> [String: [String: Any]] {
        let paths = try XCTUnwrap(spec["paths"] as? [String: [String: Any]])
        var result: [String: [String: Any]] = [:]
        for (path, item) in paths {
            for method in Self.methods {
                if let operation = item[method] as? [String: Any] {
                    result["\(method.uppercased()) \(path)"] = operation
                }
            }
        }
        return result
    }

    func testEveryServedRouteIsDocumentedAndNothingElseUnderAdmin() throws {
        let documented = Set(try Self.operations(try loadSpec()).keys)
        for route in Self.servedRoutes.sorted() {
            XCTAssertTrue(documented.contains(route), "\(route) is served but missing from docs/openapi.json")
        }
        for route in documented.sorted() where route.contains(" /admin/") {
            XCTAssertTrue(Self.servedRoutes.contains(route), "\(route) is documented but not served")
        }
    }

    func testSpecDeclaresBearerAuthOnEveryAdminOperation() throws {
        let spec = try loadSpec()
        let schemes = (spec["components"] as? [String: Any])?["securitySchemes"] as? [String: [String: Any]]
        XCTAssertEqual(schemes?["bearerAuth"]?["scheme"] as? String, "bearer")
        for (route, operation) in try Self.operations(spec) where route.contains(" /admin/") {
            let security = operation["security"] as? [[String: Any]]
            XCTAssertEqual(security?.first?.keys.first, "bearerAuth", route)
            let responses = operation["responses"] as? [String: Any]
            XCTAssertNotNil(responses?["401"], "\(route) documents no 401")
            XCTAssertNotNil(responses?["404"], "\(route) documents no 404 (admin API disabled)")
            XCTAssertNotNil(responses?["429"], "\(route) documents no 429 (too many wrong tokens)")
        }
    }

    func testLiveAppAnswersWhatTheSpecDocuments() async throws {
        let data = try Self.specData()
        try await AdminTests.withApp { client, database in
            let spec = try Self.parse(data)
            let operations = try Self.operations(spec)
            let adminRoutes = operations.keys.filter { $0.contains(" /admin/") }.sorted()
            XCTAssertFalse(adminRoutes.isEmpty)
            try AdminTests.addUser("alice", to: database)
            try AdminTests.addUser("bob", to: database)
            let now = Date()
            try BindingStore(database: database).apply([.added(Binding(
                aor: "alice", contact: "sip:alice@203.0.113.7:50123", callID: "conformance-1", cseq: 1,
                expiresAt: now.addingTimeInterval(600),
                source: BindingSource(transport: .udp, host: "203.0.113.7", port: 50_123),
                registeredAt: now, updatedAt: now))])
            try CallRecordStore(database: database).save(AdminCallsAPITests.answeredCall(startedAt: now))
            var serial = 0
            for route in adminRoutes {
                serial += 1
                // Data for this call: a tuple of its own, so the order of calls does not matter.
                let id = try await AdminTests.create(client, AdminTests.tupleBody(
                    selector: "conformance-\(serial)", calls: (AdminTests.iosAppID, "\(AdminTests.apnsToken)\(serial)"),
                    other: nil))
                guard let request = Self.request(for: route, id: id, serial: serial) else {
                    XCTFail("\(route) is in the spec but this test has no request for it")
                    continue
                }
                let operation = try XCTUnwrap(operations[route])
                let responses = try XCTUnwrap(operation["responses"] as? [String: Any], route)
                let method = HTTPRequest.Method(rawValue: String(route.prefix { $0 != " " }))!
                try await client.execute(uri: request.uri, method: method,
                                         headers: AdminTests.headers(json: request.body != nil),
                                         body: try request.body.map(AdminTests.body)) { response in
                    let status = String(response.status.code)
                    XCTAssertNotNil(responses[status], "\(route) answered \(status), which the spec does not document")
                    XCTAssertTrue((200..<300).contains(response.status.code), "\(route): \(String(buffer: response.body))")
                    try Self.checkRequired(spec, responses[status], response, route: route)
                }
                // Without a token: a documented 401 with an Error body.
                try await client.execute(uri: request.uri, method: method, headers: AdminTests.headers(token: nil)) { response in
                    XCTAssertEqual(response.status, .unauthorized, route)
                    XCTAssertNotNil(responses["401"], route)
                    try Self.checkRequired(spec, responses["401"], response, route: route)
                }
            }
            try await client.execute(uri: "/health", method: .get) { response in
                let responses = operations["GET /health"]?["responses"] as? [String: Any]
                XCTAssertNotNil(responses?[String(response.status.code)])
            }
        }
    }

    /// The reporter routes answer what the spec documents: success bodies with
    /// their required properties, and the 401 / 415 failures with an Error body.
    func testReporterRoutesAnswerWhatTheSpecDocuments() async throws {
        let data = try Self.specData()
        try await AdminTests.withApp { client, database in
            let spec = try Self.parse(data)
            let operations = try Self.operations(spec)
            try AdminTests.addUser("alice", to: database)
            let selector = "12869E0E6E553673C54F29105A0647204C416A2A:7C3A0D14"
            let report = "username=alice&password=pw-alice&selector=\(selector)"
                + "&pushToken=\(AdminTests.apnsToken)&pushappid=\(AdminTests.iosAppID)"
            let remove = "username=alice&password=pw-alice&selector=\(selector)"
            var form = HTTPFields()
            form[.contentType] = "application/x-www-form-urlencoded"
            let calls: [(route: String, uri: String, headers: HTTPFields, body: String?, expected: Int)] = [
                ("GET /push/report", "/push/report?\(report)", [:], nil, 200),
                ("POST /push/report", "/push/report", form, report, 200),
                ("POST /push/report", "/push/report", form, report.replacingOccurrences(of: "pw-alice", with: "wrong"), 401),
                ("POST /push/report", "/push/report", [.contentType: "text/plain"], report, 415),
                ("GET /push/remove", "/push/remove?\(remove)", [:], nil, 200),
                ("POST /push/remove", "/push/remove", form, remove, 200),
            ]
            for call in calls {
                let operation = try XCTUnwrap(operations[call.route], "\(call.route) is not in the spec")
                let responses = try XCTUnwrap(operation["responses"] as? [String: Any], call.route)
                let method = HTTPRequest.Method(rawValue: String(call.route.prefix { $0 != " " }))!
                try await client.execute(uri: call.uri, method: method, headers: call.headers,
                                         body: call.body.map { ByteBuffer(string: $0) }) { response in
                    XCTAssertEqual(Int(response.status.code), call.expected, "\(call.route): \(String(buffer: response.body))")
                    XCTAssertNotNil(responses[String(response.status.code)],
                                    "\(call.route) answered \(response.status.code), which the spec does not document")
                    try Self.checkRequired(spec, responses[String(response.status.code)], response, route: call.route)
                }
            }
        }
    }

    /// Error answers are documented too: each probe gets the status it names,
    /// the spec lists that status for the operation, and the body is an Error.
    func testErrorAnswersAreDocumented() async throws {
        let data = try Self.specData()
        try await AdminTests.withApp(maxBodySize: 4096) { client, database in
            let spec = try Self.parse(data)
            let operations = try Self.operations(spec)
            try AdminTests.addUser("alice", to: database)
            let id = try await AdminTests.create(client, AdminTests.tupleBody())
            let other = try await AdminTests.create(client, AdminTests.tupleBody(
                selector: "second-device", calls: (AdminTests.androidAppID, AdminTests.fcmToken), other: nil))
            var oversize = AdminTests.tupleBody()
            oversize["padding"] = String(repeating: "x", count: 5000)
            let json = AdminTests.headers(json: true)
            var text = AdminTests.headers()
            text[.contentType] = "text/plain"
            let invalid = ByteBuffer(string: "{\"username\": ")
            let probes: [(route: String, uri: String, headers: HTTPFields, body: ByteBuffer?, status: Int)] = [
                ("GET /admin/v1/tuples", "/admin/v1/tuples?limit=abc", json, nil, 400),
                ("POST /admin/v1/tuples", "/admin/v1/tuples", json, invalid, 400),
                ("POST /admin/v1/tuples", "/admin/v1/tuples", json,
                 try AdminTests.body(AdminTests.tupleBody(username: "nobody")), 400),
                ("POST /admin/v1/tuples", "/admin/v1/tuples", json, try AdminTests.body(AdminTests.tupleBody()), 409),
                ("POST /admin/v1/tuples", "/admin/v1/tuples", text, try AdminTests.body(AdminTests.tupleBody()), 415),
                ("POST /admin/v1/tuples", "/admin/v1/tuples", json, try AdminTests.body(oversize), 413),
                ("DELETE /admin/v1/tuples", "/admin/v1/tuples", json, nil, 400),
                ("POST /admin/v1/tuples/batch-delete", "/admin/v1/tuples/batch-delete", json,
                 try AdminTests.body(["ids": []]), 400),
                ("POST /admin/v1/tuples/batch-delete", "/admin/v1/tuples/batch-delete", text,
                 try AdminTests.body(["ids": [id]]), 415),
                ("POST /admin/v1/tuples/batch-delete", "/admin/v1/tuples/batch-delete", json,
                 try AdminTests.body(["ids": Array(repeating: 9_000_000_000_000_000, count: 1000)]), 413),
                ("GET /admin/v1/tuples/{id}", "/admin/v1/tuples/987654", json, nil, 404),
                ("GET /admin/v1/tuples/{id}", "/admin/v1/tuples/abc", json, nil, 400),
                ("PUT /admin/v1/tuples/{id}", "/admin/v1/tuples/987654", json, try AdminTests.body(AdminTests.tupleBody()), 404),
                ("PUT /admin/v1/tuples/{id}", "/admin/v1/tuples/\(other)", json, try AdminTests.body(AdminTests.tupleBody()), 409),
                ("PUT /admin/v1/tuples/{id}", "/admin/v1/tuples/\(other)", json,
                 try AdminTests.body(AdminTests.tupleBody(calls: nil, other: nil)), 400),
                ("PUT /admin/v1/tuples/{id}", "/admin/v1/tuples/\(other)", text, try AdminTests.body(AdminTests.tupleBody()), 415),
                ("PUT /admin/v1/tuples/{id}", "/admin/v1/tuples/\(other)", json, try AdminTests.body(oversize), 413),
                ("DELETE /admin/v1/tuples/{id}", "/admin/v1/tuples/987654", json, nil, 404),
                ("DELETE /admin/v1/tuples/{id}", "/admin/v1/tuples/-1", json, nil, 400),
                ("DELETE /admin/v1/registrations", "/admin/v1/registrations", json, nil, 400),
                ("DELETE /admin/v1/registrations", "/admin/v1/registrations?user=alice&contact=sip:alice@192.0.2.1",
                 json, nil, 404),
                ("POST /admin/v1/users", "/admin/v1/users", json, try AdminTests.body(["username": "dave"]), 400),
                ("POST /admin/v1/users", "/admin/v1/users", json, try AdminTests.body(["username": "alice", "password": "pw"]), 409),
                ("POST /admin/v1/users", "/admin/v1/users", text, try AdminTests.body(["username": "dave", "password": "pw"]), 415),
                ("POST /admin/v1/users", "/admin/v1/users", json, try AdminTests.body(oversize), 413),
                ("DELETE /admin/v1/users/{username}", "/admin/v1/users/nobody", json, nil, 404),
                ("PUT /admin/v1/users/{username}/password", "/admin/v1/users/alice/password", json,
                 try AdminTests.body(["password": ""]), 400),
                ("PUT /admin/v1/users/{username}/password", "/admin/v1/users/nobody/password", json,
                 try AdminTests.body(["password": "pw"]), 404),
                ("PUT /admin/v1/users/{username}/password", "/admin/v1/users/alice/password", text,
                 try AdminTests.body(["password": "pw"]), 415),
                ("PUT /admin/v1/users/{username}/password", "/admin/v1/users/alice/password", json,
                 try AdminTests.body(oversize), 413),
                ("PUT /admin/v1/users/{username}/hold", "/admin/v1/users/alice/hold", json,
                 try AdminTests.body(["wakeup_hold": "off"]), 400),
                ("PUT /admin/v1/users/{username}/hold", "/admin/v1/users/nobody/hold", json,
                 try AdminTests.body(["wakeup_hold": true]), 404),
                ("PUT /admin/v1/users/{username}/hold", "/admin/v1/users/alice/hold", text,
                 try AdminTests.body(["wakeup_hold": true]), 415),
                ("PUT /admin/v1/users/{username}/hold", "/admin/v1/users/alice/hold", json, try AdminTests.body(oversize), 413),
                ("GET /admin/v1/calls", "/admin/v1/calls?limit=201", json, nil, 400),
                ("GET /admin/v1/calls", "/admin/v1/calls?offset=-1", json, nil, 400),
                ("GET /admin/v1/calls", "/admin/v1/calls?outcome=rang", json, nil, 400),
                ("GET /admin/v1/calls/{id}", "/admin/v1/calls/no-such-call", json, nil, 404),
            ]
            for probe in probes {
                let responses = try XCTUnwrap(operations[probe.route]?["responses"] as? [String: Any], probe.route)
                let method = HTTPRequest.Method(rawValue: String(probe.route.prefix { $0 != " " }))!
                try await client.execute(uri: probe.uri, method: method, headers: probe.headers, body: probe.body) { response in
                    let label = "\(probe.route) \(probe.uri) → \(response.status.code)"
                    XCTAssertEqual(Int(response.status.code), probe.status, "\(label): \(String(buffer: response.body))")
                    XCTAssertNotNil(responses[String(response.status.code)], "\(label) is not documented")
                    try Self.checkRequired(spec, responses[String(response.status.code)], response, route: label)
                }
            }
            XCTAssertEqual(try TupleStore(database: database).count(), 2, "no probe wrote anything")
        }
    }

    /// An address blocked for a wrong token: every admin operation answers
    /// the documented 429, Error body and Retry-After, even with the right token.
    func testBlockedAddressAnswersDocumented429() async throws {
        let data = try Self.specData()
        try await AdminTests.withApp(adminFailuresPerMinute: 1) { client, _ in
            let wrong = try await client.execute(uri: "/admin/v1/tuples", method: .get,
                                                 headers: AdminTests.headers(token: "wrong-0123456789abcdef"))
            XCTAssertEqual(wrong.status, .unauthorized)
            try await Self.everyAdminOperationAnswers(.tooManyRequests, client: client, spec: try Self.parse(data)) {
                route, documented, response in
                XCTAssertNotNil((documented["headers"] as? [String: Any])?["Retry-After"], route)
                XCTAssertNotNil(response.headers[.retryAfter].flatMap { Int($0) }, route)
            }
        }
    }

    /// With no admin token configured, every admin operation answers the documented 404.
    func testDisabledAdminAPIAnswersDocumented404() async throws {
        let data = try Self.specData()
        try await AdminTests.withApp(token: nil) { client, _ in
            try await Self.everyAdminOperationAnswers(.notFound, client: client, spec: try Self.parse(data)) { _, _, _ in }
        }
    }

    /// Calls every admin operation of the spec once (id 1, body `{}`, the
    /// right token) and checks that it answers `status`, which the spec lists
    /// for it with the body it describes; `more` checks the rest.
    static func everyAdminOperationAnswers(
        _ status: HTTPResponse.Status, client: any TestClientProtocol, spec: [String: Any],
        more: (_ route: String, _ documented: [String: Any], _ response: TestResponse) throws -> Void
    ) async throws {
        for (route, operation) in try operations(spec) where route.contains(" /admin/") {
            let responses = try XCTUnwrap(operation["responses"] as? [String: Any], route)
            let method = HTTPRequest.Method(rawValue: String(route.prefix { $0 != " " }))!
            let uri = route.drop { $0 != " " }.dropFirst().replacingOccurrences(of: "{id}", with: "1")
                .replacingOccurrences(of: "{username}", with: "alice")
            let response = try await client.execute(uri: uri, method: method, headers: AdminTests.headers(json: true),
                                                    body: method == .get || method == .delete ? nil : ByteBuffer(string: "{}"))
            XCTAssertEqual(response.status, status, route)
            let documented = try XCTUnwrap(responses[String(status.code)] as? [String: Any],
                                           "\(route) does not document \(status.code)")
            try checkRequired(spec, documented, response, route: route)
            try more(route, documented, response)
        }
    }

    /// The request that exercises `route` successfully: real ids, required
    /// query parameters, a valid body.
    static func request(for route: String, id: Int, serial: Int) -> (uri: String, body: [String: Any]?)? {
        switch route {
        case "GET /admin/v1/tuples": return ("/admin/v1/tuples?user=alice&limit=10&offset=0", nil)
        case "POST /admin/v1/tuples":
            return ("/admin/v1/tuples", AdminTests.tupleBody(
                selector: "conformance-new-\(serial)", calls: (AdminTests.androidAppID, AdminTests.fcmToken), other: nil,
                platform: "android"))
        case "DELETE /admin/v1/tuples": return ("/admin/v1/tuples?user=alice", nil)
        case "POST /admin/v1/tuples/batch-delete": return ("/admin/v1/tuples/batch-delete", ["ids": [id]])
        case "GET /admin/v1/tuples/{id}", "DELETE /admin/v1/tuples/{id}": return ("/admin/v1/tuples/\(id)", nil)
        case "PUT /admin/v1/tuples/{id}":
            return ("/admin/v1/tuples/\(id)", AdminTests.tupleBody(selector: "conformance-moved-\(serial)"))
        case "GET /admin/v1/registrations": return ("/admin/v1/registrations?user=alice", nil)
        case "DELETE /admin/v1/registrations": return ("/admin/v1/registrations?user=alice", nil)
        case "GET /admin/v1/users": return ("/admin/v1/users", nil)
        case "POST /admin/v1/users": return ("/admin/v1/users", ["username": "conformance-\(serial)", "password": "pw-\(serial)"])
        // bob, not alice: every route's tuple is alice's.
        case "DELETE /admin/v1/users/{username}": return ("/admin/v1/users/bob", nil)
        case "PUT /admin/v1/users/{username}/password": return ("/admin/v1/users/alice/password", ["password": "new-\(serial)"])
        case "PUT /admin/v1/users/{username}/hold": return ("/admin/v1/users/alice/hold", ["wakeup_hold": false])
        case "GET /admin/v1/calls": return ("/admin/v1/calls?user=alice&outcome=answered&limit=10&offset=0", nil)
        case "GET /admin/v1/calls/{id}": return ("/admin/v1/calls/\(AdminCallsAPITests.pairingID)", nil)
        case "GET /admin/v1/live-calls": return ("/admin/v1/live-calls", nil)
        default: return nil
        }
    }

    /// Checks the body of `response` against the JSON schema the spec gives
    /// for it: required properties present, recursively through objects and arrays.
    static func checkRequired(_ spec: [String: Any], _ documented: Any?, _ response: TestResponse, route: String) throws {
        let content = (documented as? [String: Any])?["content"] as? [String: Any]
        guard let schema = (content?["application/json"] as? [String: Any])?["schema"] else {
            XCTAssertEqual(response.body.readableBytes, 0, "\(route): the spec documents no body")
            return
        }
        let body = try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView), options: [.fragmentsAllowed])
        check(body, against: schema, spec: spec, at: route)
    }

    static func check(_ value: Any, against schema: Any, spec: [String: Any], at location: String) {
        guard var schema = schema as? [String: Any] else { return XCTFail("\(location): schema is not an object") }
        if let ref = schema["$ref"] as? String {
            let name = String(ref.split(separator: "/").last ?? "")
            let schemas = (spec["components"] as? [String: Any])?["schemas"] as? [String: Any]
            guard let resolved = schemas?[name] as? [String: Any] else { return XCTFail("\(location): unresolved \(ref)") }
            schema = resolved
        }
        if value is NSNull {
            XCTAssertEqual(schema["nullable"] as? Bool, true, "\(location) is null but not nullable")
            return
        }
        switch schema["type"] as? String {
        case "object":
            guard let object = value as? [String: Any] else { return XCTFail("\(location) is not an object") }
            for key in schema["required"] as? [String] ?? [] {
                XCTAssertTrue(object.keys.contains(key), "\(location): required property '\(key)' is missing")
            }
            let properties = schema["properties"] as? [String: Any] ?? [:]
            for (key, property) in properties {
                if let member = object[key] { check(member, against: property, spec: spec, at: "\(location).\(key)") }
            }
        case "array":
            guard let array = value as? [Any] else { return XCTFail("\(location) is not an array") }
            for (index, element) in array.enumerated() {
                check(element, against: schema["items"] ?? [:], spec: spec, at: "\(location)[\(index)]")
            }
        case "string":
            XCTAssertTrue(value is String, "\(location) is not a string")
        case "integer":
            XCTAssertNotNil(value as? Int, "\(location) is not an integer")
        case "boolean", "number", nil:
            return
        default:
            return
        }
    }
}
