import Foundation
import PushSink
import XCTest

/// The push sink serving HTTPS: HTTP/2 by ALPN (HTTP/1.1 still offered), the
/// gateway's pushes and the read-back endpoints over it, and clear errors
/// for certificate and key files it cannot use.
final class PushSinkTLSTests: XCTestCase {
    private var keys: SinkTestKeys!

    override func setUpWithError() throws {
        keys = try SinkTestKeys()
    }

    override func tearDown() {
        keys?.remove()
    }

    func testHTTP2IsNegotiatedAndHTTP1IsStillOffered() async throws {
        try await SinkOverTLS.run(keys) { _, curl in
            let h2 = try curl.request("/rules", method: "GET")
            XCTAssertEqual(h2.status, 200)
            XCTAssertEqual(h2.httpVersion, "2")
            let h1 = try curl.request("/rules", method: "GET", http1: true)
            XCTAssertEqual(h1.status, 200)
            XCTAssertEqual(h1.httpVersion, "1.1")
        }
    }

    func testGatewayPushesOverHTTP2AreRecordedAsAcrobits() async throws {
        try await SinkOverTLS.run(keys, change: { $0.rules = ["gone-token": .gone] }) { _, curl in
            let ok = try curl.request("/pnm2/send", headers: ["content-type": "application/json"],
                                      body: #"{"DeviceToken":"live-token","verb":"NotifyIncomingCall"}"#)
            XCTAssertEqual(ok.status, 200)
            XCTAssertEqual(ok.httpVersion, "2")
            XCTAssertEqual(ok.object?["status"] as? String, "ok")
            let gone = try curl.request("/pnm2/send", body: #"{"DeviceToken":"gone-token"}"#)
            XCTAssertEqual(gone.status, 404)
            XCTAssertEqual(gone.object?["code"] as? String, "NotRegistered")

            let (records, _) = try curl.records()
            XCTAssertEqual(records.map(\.provider), ["acrobits", "acrobits"])
            XCTAssertEqual(records.map(\.token), ["live-token", "gone-token"])
            XCTAssertEqual(records.map(\.status), [200, 404])
            XCTAssertEqual(records.first?.body["verb"], "NotifyIncomingCall")
            XCTAssertNil(records.first?.payload, "gateway records keep their old shape")
        }
    }

    func testPlainHTTPIsTheDefault() async throws {
        let (_, service, port) = try await PushFixtures.startSink()
        let answer = try? await SinkHTTP.request("GET", port: port, path: "/rules")
        try await service.stop()
        XCTAssertEqual(answer?.status, 200)
    }

    func testFilesItCannotUseAreClearErrors() throws {
        let missing = PushSinkTLSFiles(certificate: keys.directory.appendingPathComponent("none.pem").path, key: keys.serverKey)
        XCTAssertThrowsError(try missing.serverConfiguration()) { error in
            XCTAssertTrue("\(error)".hasPrefix("cannot read TLS certificate "), "\(error)")
        }
        let notPEM = try keys.file("garbage.pem", "hello\n")
        XCTAssertThrowsError(try PushSinkTLSFiles(certificate: keys.serverCertificate, key: notPEM).serverConfiguration()) { error in
            XCTAssertTrue("\(error)".hasPrefix("cannot read TLS private key \(notPEM)"), "\(error)")
        }
        // The APNs key is a good key, but not the certificate's.
        XCTAssertThrowsError(try PushSinkTLSFiles(certificate: keys.serverCertificate, key: keys.apnsKey).serverConfiguration()) { error in
            XCTAssertTrue("\(error)".contains("does not fit certificate"), "\(error)")
        }
        XCTAssertNoThrow(try PushSinkTLSFiles(certificate: keys.serverCertificate, key: keys.serverKey).serverConfiguration())
    }

    func testRunStopsWithAPushSinkErrorForABadKey() async throws {
        var settings = try SinkOverTLS.settings(keys)
        settings.tls = PushSinkTLSFiles(certificate: keys.serverCertificate, key: try keys.file("garbage.pem", "x"))
        let sink = PushSink(settings: settings, logger: PushFixtures.logger)
        do {
            try await sink.run()
            XCTFail("run() must throw")
        } catch let error as PushSinkError {
            XCTAssertTrue(error.description.hasPrefix("cannot read TLS private key"), error.description)
        }
        let port = await sink.boundPort
        XCTAssertNil(port)

        settings = try SinkOverTLS.settings(keys)
        settings.apns.keyPEM = "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n"
        do {
            try await PushSink(settings: settings, logger: PushFixtures.logger).run()
            XCTFail("run() must throw")
        } catch let error as PushSinkError {
            XCTAssertTrue(error.description.hasPrefix("APNs key: "), error.description)
        }
    }
}
