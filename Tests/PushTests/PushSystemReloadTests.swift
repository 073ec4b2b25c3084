import Foundation
import Model
import Prometheus
import Push
import Testing

/// `PushSystem.reload`, as a `SIGHUP` does it: the providers change for the
/// pushes that follow, and an app keeps its credential unless its key changed.
@Suite struct PushSystemReloadTests {
    let system: PushSystemTests

    init() {
        system = PushSystemTests()
    }

    /// The key id in the header of the JWT a push carried (`bearer <jwt>`).
    static func keyID(ofBearer bearer: String) -> String? {
        guard let header = bearer.dropFirst("bearer ".count).split(separator: ".").first else { return nil }
        var base64 = header.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let data = Data(base64Encoded: base64),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        return object["kid"] as? String
    }

    @Test func aReloadKeepsAnUnchangedKeysCredentialRenewsAChangedOneAndDropsARemovedApp() async throws {
        let server = LabHTTPServer { _ in .init(status: 200, headers: [("apns-id", "x")], body: "") }
        let base = try await server.start()
        defer { Task { await server.stop() } }
        let key = DirectPushFixtures.apnsKeyPEM()
        let settings = APNsSettings(appID: "com.example.phone", signingKeyPEM: key.pem, keyID: "ABC123DEFG",
                                    teamID: "TEAM123456", bundleID: "com.example.phone", url: base, format: .incomingCallEvent)
        var message = DirectPushFixtures.message(provider: "acrobits")
        message.sentAt = Date()
        try await system.withSystem([.apns(settings)]) { push in
            #expect(await PushFixtures.send(message, with: push.client) == .delivered(status: 200))

            // Same key, another bundle: the provider changes, the token stays.
            var sameKey = settings
            sameKey.bundleID = "com.example.other"
            let kept = try push.reload(acrobits: nil, apps: [.apns(sameKey)], webhook: nil)
            #expect(kept == PushReloadSummary(newCredentials: [], keptCredentials: ["com.example.phone"], removedApps: []))
            #expect(await PushFixtures.send(message, with: push.client) == .delivered(status: 200))

            // A new key id: a new token, signed with it.
            var newKey = sameKey
            newKey.keyID = "NEWKEY4567"
            let renewed = try push.reload(acrobits: nil, apps: [.apns(newKey)], webhook: nil)
            #expect(renewed.newCredentials == ["com.example.phone"])
            #expect(await PushFixtures.send(message, with: push.client) == .delivered(status: 200))

            // A key that cannot be read changes nothing.
            var broken = newKey
            broken.signingKeyPEM = "-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----\n"
            #expect(throws: APNsSigningKeyError.self) {
                try push.reload(acrobits: nil, apps: [.apns(broken)], webhook: nil)
            }
            #expect(await PushFixtures.send(message, with: push.client) == .delivered(status: 200))

            // The app removed: its devices have no provider any more.
            let removed = try push.reload(acrobits: nil, apps: [], webhook: nil)
            #expect(removed.removedApps == ["com.example.phone"])
            #expect(push.client.providers.provider(forApp: "com.example.phone") == nil)
            let refused = await PushFixtures.send(message, with: push.client)
            #expect(refused.kind == .failed)
        }
        let records = server.records
        #expect(records.count == 4)
        let bearers = records.map { $0.headers["authorization"] ?? "" }
        #expect(records.map { $0.headers["apns-topic"] } == ["com.example.phone.voip", "com.example.other.voip",
                                                              "com.example.other.voip", "com.example.other.voip"])
        #expect(bearers[0] == bearers[1], "an unchanged key keeps its token")
        #expect(bearers[2] != bearers[1])
        #expect(bearers[2] == bearers[3], "a refused reload left the new token in place")
        #expect(bearers.map(Self.keyID(ofBearer:)) == ["ABC123DEFG", "ABC123DEFG", "NEWKEY4567", "NEWKEY4567"])
    }
}
