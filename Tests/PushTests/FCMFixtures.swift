import Foundation
import Push

/// FCM providers for the tests, with an access token already made.
enum FCMFixtures {
    static let accessToken = "ya29.test-access-token"

    /// A service account with a fresh key (made once: RSA keys are slow to make).
    static let keyPair: (pem: String, publicPEM: String) = try! DirectPushFixtures.rsaKey()

    static func account(tokenURI: String? = "https://oauth2.googleapis.com/token") throws -> FCMServiceAccount {
        try FCMServiceAccount(json: DirectPushFixtures.serviceAccountJSON(privateKeyPEM: keyPair.pem, tokenURI: tokenURI))
    }

    static func provider(format: PushPayloadFormat = .acrobits, store: PushCredentialStore = APNsFixtures.store(token: accessToken),
                         url: String? = nil, notices: EndOfCallNotices = .standard) throws -> FCMProvider {
        FCMProvider(settings: FCMSettings(appID: "com.example.phone", serviceAccount: try account(), url: url, format: format,
                                          notices: notices),
                    credential: store)
    }
}
