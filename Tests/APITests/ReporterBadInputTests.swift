import Foundation
import Hummingbird
import HummingbirdTesting
import XCTest

/// Bad input: a 4xx with a JSON error naming the problem, and nothing stored.
extension ReporterTests {
    /// Sends `send`, expects `status` (and `field` when given), then checks no tuple exists.
    func assertRefused(_ status: HTTPResponse.Status, field: String? = nil, maxBodySize: Int = 16 * 1024,
                       file: StaticString = #filePath, line: UInt = #line,
                       _ send: @escaping @Sendable (any TestClientProtocol) async throws -> TestResponse) async throws {
        try await withServer(maxBodySize: maxBodySize) { client, fixture in
            let response = try await send(client)
            XCTAssertEqual(response.status, status, String(buffer: response.body), file: file, line: line)
            let body = try Self.json(response)
            XCTAssertNotNil(body["error"] as? String, file: file, line: line)
            if let field {
                XCTAssertEqual(body["field"] as? String, field, file: file, line: line)
            }
            XCTAssertEqual(try fixture.tuples.count(), 0, "nothing stored", file: file, line: line)
        }
    }

    func testMalformedJSONIs400() async throws {
        try await assertRefused(.badRequest) { client in
            try await client.execute(uri: "/push/report", method: .post, headers: [.contentType: "application/json"],
                                     body: ByteBuffer(string: #"{"username":"alice","password":"alice-secret","selector":"#))
        }
    }

    func testJSONWithNonStringValueIs400() async throws {
        try await assertRefused(.badRequest) { client in
            try await client.execute(uri: "/push/report", method: .post, headers: [.contentType: "application/json"],
                                     body: ByteBuffer(string: #"{"username":"alice","password":"alice-secret","selector":12,"pushToken":"t","pushappid":"a"}"#))
        }
    }

    func testMalformedPercentEscapeIs400() async throws {
        try await assertRefused(.badRequest) { client in
            try await client.execute(uri: "/push/report", method: .post,
                                     headers: [.contentType: "application/x-www-form-urlencoded"],
                                     body: ByteBuffer(string: "username=alice&password=alice-secret&selector=%G1&pushToken=t&pushappid=a"))
        }
    }

    func testWrongContentTypeIs415() async throws {
        try await assertRefused(.unsupportedMediaType) { client in
            try await client.execute(uri: "/push/report", method: .post, headers: [.contentType: "text/plain"],
                                     body: ByteBuffer(string: Self.form(Self.iPhoneReport())))
        }
    }

    func testOversizeBodyIs413() async throws {
        try await assertRefused(.contentTooLarge, maxBodySize: 1024) { client in
            let padding = String(repeating: "x", count: 2048)
            return try await Self.postForm(client, "/push/report", Self.iPhoneReport() + [("padding", padding)])
        }
    }

    func testMissingSelectorIs400NamingTheField() async throws {
        try await assertRefused(.badRequest, field: "selector") { client in
            try await Self.postForm(client, "/push/report", Self.iPhoneReport().filter { $0.0 != "selector" })
        }
    }

    func testMissingSelectorOnRemovalIs400() async throws {
        try await assertRefused(.badRequest, field: "selector") { client in
            try await Self.postForm(client, "/push/remove", [("username", "alice"), ("password", "alice-secret")])
        }
    }

    func testHalfPairIs400NamingTheMissingHalf() async throws {
        try await assertRefused(.badRequest, field: "pushappid_other") { client in
            try await Self.postForm(client, "/push/report", Self.iPhoneReport().filter { $0.0 != "pushappid_other" })
        }
        try await assertRefused(.badRequest, field: "token_calls") { client in
            try await Self.postJSON(client, "/push/report", [
                "username": "alice", "password": "alice-secret", "selector": Self.selector, "appId_calls": Self.voipAppID,
            ])
        }
    }

    func testNoTokenAtAllIs400() async throws {
        try await assertRefused(.badRequest, field: "pushToken") { client in
            try await Self.postForm(client, "/push/report", [("username", "alice"), ("password", "alice-secret"), ("selector", Self.selector)])
        }
    }

    func testControlCharacterIs400() async throws {
        try await assertRefused(.badRequest, field: "pushTokenIncomingCall") { client in
            try await Self.postForm(client, "/push/report", Self.iPhoneReport(voip: Self.apnsToken + "\r\nX-Injected: 1"))
        }
        try await assertRefused(.badRequest, field: "selector") { client in
            try await Self.postJSON(client, "/push/report", [
                "username": "alice", "password": "alice-secret", "selector": "abc\u{0}def",
                "pushToken": Self.fcmToken, "pushappid": Self.appID,
            ])
        }
    }

    func testOverLongFieldIs400() async throws {
        try await assertRefused(.badRequest, field: "selector") { client in
            try await Self.postForm(client, "/push/report", Self.iPhoneReport(selector: String(repeating: "A", count: 257)))
        }
        try await assertRefused(.badRequest, field: "pushToken") { client in
            try await Self.postJSON(client, "/push/report", [
                "username": "alice", "password": "alice-secret", "selector": Self.selector,
                "pushToken": String(repeating: "f", count: 4097), "pushappid": Self.appID,
            ])
        }
    }

    func testUnknownPlatformIs400() async throws {
        try await assertRefused(.badRequest, field: "platform") { client in
            try await Self.postForm(client, "/push/report", Self.iPhoneReport() + [("platform", "symbian")])
        }
    }

    func testConflictingSpellingsAre400() async throws {
        try await assertRefused(.badRequest, field: "username") { client in
            try await Self.postForm(client, "/push/report", Self.iPhoneReport() + [("account[username]", "bob")])
        }
    }

    func testPasswordWithoutUsernameIs400() async throws {
        try await assertRefused(.badRequest, field: "username") { client in
            try await Self.postForm(client, "/push/report", Self.iPhoneReport().filter { $0.0 != "username" })
        }
    }
}
