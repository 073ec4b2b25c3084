import Crypto
import Foundation
import Model
import Push
import _CryptoExtras

/// Messages, keys and settings for the direct provider tests (APNs, FCM).
enum DirectPushFixtures {
    static let eventID = UUID(uuidString: "6F1C2A3B-4D5E-4F60-8172-93A4B5C6D7E8")!
    static let apnsToken = "8c7e52d3a4f1b6e09d2c3b4a5f6e7d8c9b0a1f2e3d4c5b6a7980f1e2d3c4b5a6"
    static let sentAt = Date(timeIntervalSince1970: 1_700_000_000)
    /// 1_699_999_998.482 s: two seconds before the push, with milliseconds.
    static let startedAt = Date(timeIntervalSince1970: 1_699_999_998.482)

    static func message(event: PushEvent = .incomingCall, provider: String = "apns", appID: String = "com.example.phone",
                        token: String = apnsToken, callerName: String? = "Alice Smith",
                        callerUser: String? = "+49 151 1234-5678", media: String? = "video") -> PushMessage {
        PushMessage(provider: provider, event: event, tupleID: 9, appID: appID, deviceToken: token,
                    selector: "sel-1", pairingID: "call-1@pbx.example.com", callerDisplayName: callerName,
                    callerUser: callerUser, callerDomain: "pbx.example.com", media: media, badge: 2, sound: "ring.caf",
                    sentAt: sentAt, callee: "bob", callerURI: "sip:+4915112345678@pbx.example.com",
                    callStartedAt: startedAt, eventID: eventID)
    }

    /// A fresh APNs signing key, as a `.p8` file's text.
    static func apnsKeyPEM() -> (pem: String, publicPEM: String) {
        let key = P256.Signing.PrivateKey()
        return (key.pemRepresentation, key.publicKey.pemRepresentation)
    }

    /// A fresh RSA key, as PEM text.
    static func rsaKey() throws -> (pem: String, publicPEM: String) {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        return (key.pemRepresentation, key.publicKey.pemRepresentation)
    }

    /// A service account key file with `privateKeyPEM`, pointing its token endpoint at `tokenURI`.
    static func serviceAccountJSON(privateKeyPEM: String, tokenURI: String? = "https://oauth2.googleapis.com/token",
                                   dropping: String? = nil) -> Data {
        var object: [String: String] = [
            "type": "service_account",
            "project_id": "phone-project",
            "private_key_id": "key-id-1",
            "private_key": privateKeyPEM,
            "client_email": "sipwake@phone-project.iam.gserviceaccount.com",
        ]
        if let tokenURI { object["token_uri"] = tokenURI }
        if let dropping { object.removeValue(forKey: dropping) }
        return try! JSONSerialization.data(withJSONObject: object)
    }

    /// The JSON text of `data`'s object with sorted keys, for exact comparisons.
    static func text(_ data: Data) -> String {
        String(decoding: data, as: UTF8.self)
    }
}
