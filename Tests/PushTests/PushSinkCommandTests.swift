import Foundation
import Metrics
import Push
import PushSink
import XCTest

/// The built `sipwake push-sink` as an operator runs it.
final class PushSinkCommandTests: XCTestCase {
    /// The `sipwake` executable next to the test bundle.
    private static var executable: String {
        let bundleDir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidate = bundleDir.appendingPathComponent("sipwake").path
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        return bundleDir.deletingLastPathComponent().appendingPathComponent("sipwake").path
    }

    private func launch(_ arguments: [String]) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = ["push-sink"] + arguments
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return (process, stderr)
    }

    /// Reads standard error up to the first whole line that starts with `prefix`.
    private static func line(startingWith prefix: String, from pipe: Pipe) async -> String? {
        await Task.detached {
            var pending = ""
            while true {
                let data = pipe.fileHandleForReading.availableData
                if data.isEmpty { return pending.hasPrefix(prefix) ? pending : nil }
                pending += String(decoding: data, as: UTF8.self)
                while let newline = pending.firstIndex(of: "\n") {
                    let line = String(pending[..<newline])
                    pending = String(pending[pending.index(after: newline)...])
                    if line.hasPrefix(prefix) { return line }
                }
            }
        }.value
    }

    func testPushSinkAnswersAClientAndWritesLines() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("push-sink-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("pushes.jsonl").path

        let (process, stderr) = try launch([
            "--listen", "127.0.0.1:0", "--output", output, "--gone", "gone-token", "--fail", "dQw4w9WgXcQ:APA91b:503",
        ])
        defer { if process.isRunning { process.terminate() } }
        let listening = await Self.line(startingWith: "push-sink listening on ", from: stderr)
        let line = try XCTUnwrap(listening, "push-sink printed no listening line")
        let url = String(line.dropFirst("push-sink listening on ".count))
        XCTAssertTrue(url.hasPrefix("http://127.0.0.1:"), url)
        XCTAssertTrue(url.hasSuffix("/pnm2/send"), url)

        let client = PushFixtures.client(gatewayURL: url, logger: PushFixtures.logger)
        let service = RunningService.start(client, logger: PushFixtures.logger)
        let ok = await PushFixtures.send(PushFixtures.incomingCall(), with: client)
        let gone = await PushFixtures.send(PushFixtures.incomingCall(token: "gone-token"), with: client)
        let fcm = await PushFixtures.send(PushFixtures.incomingCall(token: "dQw4w9WgXcQ:APA91b"), with: client)
        try await service.stop()
        XCTAssertEqual([ok.kind, gone.kind, fcm.kind], [.delivered, .tokenGone, .retryable])
        XCTAssertEqual(fcm.httpStatus, 503)

        process.terminate()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        let lines = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
        let records = try lines.map { try PushSinkRecord.jsonDecoder().decode(PushSinkRecord.self, from: Data($0.utf8)) }
        XCTAssertEqual(records.map(\.status), [200, 404, 503])
        XCTAssertEqual(records.first?.body, AcrobitsPayload(PushFixtures.incomingCall()).fields)
    }

    func testPushSinkPlaysACustomersBackendCheckingWebhookSignatures() async throws {
        let secret = WebhookProviderTests.current
        let (process, stderr) = try launch(["--listen", "127.0.0.1:0", "--output", "-", "--webhook-secret", secret,
                                            "--gone", "bob"])
        defer { if process.isRunning { process.terminate() } }
        let listening = await Self.line(startingWith: "push-sink listening on ", from: stderr)
        let line = try XCTUnwrap(listening, "push-sink printed no listening line")
        let base = String(line.dropFirst("push-sink listening on ".count).dropLast("/pnm2/send".count))
        func client(secrets: [String]) -> PushClient {
            PushClient(settings: PushClientSettings(),
                       providers: PushProviders([WebhookProvider(settings: WebhookSettings(
                           global: WebhookEndpoint(url: "\(base)/webhook", secrets: secrets)))]),
                       logger: PushFixtures.logger, metrics: NOOPMetricsHandler.instance)
        }
        var bob = WebhookProviderTests.message()
        bob.callee = "bob"
        let signed = client(secrets: [secret])
        let service = RunningService.start(signed, logger: PushFixtures.logger)
        let alice = await PushFixtures.send(WebhookProviderTests.message(), with: signed)
        let unknown = await PushFixtures.send(bob, with: signed)
        try await service.stop()
        XCTAssertEqual(alice.kind, .delivered)
        XCTAssertEqual(unknown.kind, .tokenGone, "404: no device for bob")

        let wrong = client(secrets: [WebhookProviderTests.previous])
        let wrongService = RunningService.start(wrong, logger: PushFixtures.logger)
        let refused = await PushFixtures.send(WebhookProviderTests.message(), with: wrong)
        try await wrongService.stop()
        XCTAssertEqual(refused.kind, .failed)
        XCTAssertEqual(refused.httpStatus, 401)
        process.terminate()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
    }

    func testBadArgumentsExitWith64() async throws {
        for arguments in [["--listen", "nowhere"], ["--fail", "token:99"], ["--slow", "token"], ["--default-rule", "maybe"],
                          ["--retry-after", "soon"], ["--expire-provider-tokens", "many"], ["--oauth-expires-in", "0"],
                          ["--bad", ""]] {
            let (process, stderr) = try launch(arguments)
            let line = await Self.line(startingWith: "Error: ", from: stderr)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 64, "\(arguments)")
            XCTAssertTrue(line?.contains("invalid \(arguments[0])") == true, "\(arguments): \(line ?? "no error line")")
        }
    }

    func testKeyAndCertificateFilesItCannotUseExitWith64() async throws {
        let keys = try SinkTestKeys()
        defer { keys.remove() }
        let garbage = try keys.file("garbage.pem", "not a key\n")
        let account = try keys.file("account.json", #"{"client_email":"a@b.c"}"#)
        let missing = keys.directory.appendingPathComponent("missing.pem").path
        let cases: [([String], String)] = [
            (["--tls-cert", keys.serverCertificate], "--tls-cert needs --tls-key"),
            (["--tls-cert", missing, "--tls-key", keys.serverKey], "invalid --tls-cert/--tls-key: cannot read TLS certificate"),
            (["--tls-cert", keys.serverCertificate, "--tls-key", keys.apnsKey], "does not fit certificate"),
            (["--apns-key", garbage], "invalid --apns-key"),
            (["--apns-key", missing], "invalid --apns-key '\(missing)': cannot read the file"),
            (["--apns-key", keys.serviceAccountKey], "invalid --apns-key"),
            (["--fcm-service-account", account], "no PEM private_key"),
            (["--fcm-key", keys.apnsKey], "invalid --fcm-key"),
            (["--fcm-key", keys.serviceAccountKey, "--fcm-service-account", keys.serviceAccount], "are exclusive"),
        ]
        for (arguments, expected) in cases {
            let (process, stderr) = try launch(arguments)
            let line = await Self.line(startingWith: "Error: ", from: stderr)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 64, "\(arguments)")
            XCTAssertTrue(line?.contains(expected) == true, "\(arguments): \(line ?? "no error line")")
        }
    }

    func testHTTPSWithAPNsAndFCMKeysServesHTTP2() async throws {
        let keys = try SinkTestKeys()
        defer { keys.remove() }
        let (process, stderr) = try launch([
            "--listen", "127.0.0.1:0", "--output", keys.directory.appendingPathComponent("pushes.jsonl").path,
            "--tls-cert", keys.serverCertificate, "--tls-key", keys.serverKey,
            "--apns-key", keys.apnsKey, "--apns-key-id", "TESTKEY123", "--apns-team-id", "TEAM123456",
            "--fcm-service-account", keys.serviceAccount, "--fcm-project", "sipwake-lab", "--gone", "gone-token",
        ])
        defer { if process.isRunning { process.terminate() } }
        let listening = await Self.line(startingWith: "push-sink listening on ", from: stderr)
        let url = try XCTUnwrap(listening, "push-sink printed no listening line").dropFirst("push-sink listening on ".count)
        XCTAssertTrue(url.hasPrefix("https://127.0.0.1:"), String(url))
        let port = try XCTUnwrap(Int(url.split(separator: ":").last?.split(separator: "/").first ?? ""))
        let curl = try SinkCurl(port: port, keys: keys)

        let jwt = try await keys.apnsJWT()
        let headers = ["authorization": "bearer \(jwt)", "apns-topic": "com.example.phone.voip", "apns-push-type": "voip"]
        let ok = try curl.request("/3/device/live-token", headers: headers, body: #"{"aps":{}}"#)
        XCTAssertEqual(ok.httpVersion, "2")
        XCTAssertEqual(ok.status, 200, ok.text)
        let gone = try curl.request("/3/device/gone-token", headers: headers, body: #"{"aps":{}}"#)
        XCTAssertEqual(gone.status, 410)

        let grant = try curl.request("/token", body: "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion="
            + (try await keys.assertion(audience: "\(curl.baseURL)/token")))
        XCTAssertEqual(grant.status, 200, grant.text)
        XCTAssertEqual(grant.object?["expires_in"] as? Int, 3599)
        process.terminate()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
    }
}
