import Foundation
import PushSink
import XCTest

/// A push sink on loopback serving HTTPS with the test keys, checking APNs
/// JWTs against the test `.p8` (kid `TESTKEY123`, team `TEAM123456`) and
/// OAuth assertions against the test service account (project
/// `sipwake-lab`), and curl pointed at it.
enum SinkOverTLS {
    static let keyID = "TESTKEY123"
    static let teamID = "TEAM123456"
    static let project = "sipwake-lab"

    static func settings(_ keys: SinkTestKeys) throws -> PushSinkSettings {
        PushSinkSettings(
            port: 0, tls: PushSinkTLSFiles(certificate: keys.serverCertificate, key: keys.serverKey),
            apns: PushSinkAPNsSettings(keyPEM: try keys.text(keys.apnsKey), keyID: keyID, teamID: teamID),
            fcm: PushSinkFCMSettings(project: project, keyPEM: try keys.text(keys.serviceAccountKey),
                                     clientEmail: SinkTestKeys.clientEmail, tokenURI: "https://oauth2.googleapis.com/token"))
    }

    /// Runs `body` against a sink started with `settings` (after `change`), then stops it.
    static func run(_ keys: SinkTestKeys, change: (inout PushSinkSettings) throws -> Void = { _ in },
                    _ body: (PushSink, SinkCurl) async throws -> Void) async throws {
        var settings = try settings(keys)
        try change(&settings)
        let (sink, service, port) = try await PushFixtures.startSink(settings)
        do {
            try await body(sink, try SinkCurl(port: port, keys: keys))
        } catch {
            try? await service.stop()
            throw error
        }
        try await service.stop()
    }
}
