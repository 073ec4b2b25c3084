import Foundation
import Model
import Push

/// APNs providers for the tests, with a provider token already made.
enum APNsFixtures {
    static let jwt = "eyJhbGciOiJFUzI1NiJ9.test.sig"

    static func settings(format: PushPayloadFormat = .incomingCallEvent, sandbox: Bool = false, url: String? = nil,
                         keyPEM: String = "unused", notices: EndOfCallNotices = .standard) -> APNsSettings {
        APNsSettings(appID: "com.example.phone", signingKeyPEM: keyPEM, keyID: "ABC123DEFG", teamID: "TEAM123456",
                     bundleID: "com.example.phone", sandbox: sandbox, url: url, format: format, notices: notices)
    }

    /// A store holding `token`, valid for an hour from the fixtures' send time.
    static func store(token: String? = jwt) -> PushCredentialStore {
        let store = PushCredentialStore()
        if let token {
            store.set(PushCredential(token: token, issuedAt: DirectPushFixtures.sentAt,
                                     expiresAt: DirectPushFixtures.sentAt.addingTimeInterval(3600)))
        }
        return store
    }

    static func provider(format: PushPayloadFormat = .incomingCallEvent, store: PushCredentialStore = store(),
                         sandbox: Bool = false, url: String? = nil, notices: EndOfCallNotices = .standard) -> APNsProvider {
        APNsProvider(settings: settings(format: format, sandbox: sandbox, url: url, notices: notices), credential: store)
    }
}
