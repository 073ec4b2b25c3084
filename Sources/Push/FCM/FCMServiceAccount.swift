import Foundation
import JWTKit

/// A Firebase service account, from the JSON key file the Firebase console
/// gives (Project settings → Service accounts → Generate new private key):
/// the project pushes go to, and the account and RSA key sipwake signs its
/// OAuth assertions with. Reading it checks it, for `sipwake config check`.
public struct FCMServiceAccount: Sendable {
    /// `project_id`: the Firebase project.
    public let projectID: String
    /// `client_email`: the service account.
    public let clientEmail: String
    /// `private_key_id`: the key's id, sent as the assertion's `kid`.
    public let privateKeyID: String
    /// `token_uri`: Google's OAuth token endpoint (https://oauth2.googleapis.com/token when absent).
    public let tokenURI: String
    let privateKey: Insecure.RSA.PrivateKey

    public static let defaultTokenURI = "https://oauth2.googleapis.com/token"

    /// Reads the key file's contents.
    public init(json: Data) throws(FCMServiceAccountError) {
        guard let object = PushJSONValue.object(from: json) else {
            throw FCMServiceAccountError("Firebase service account file is not a JSON object")
        }
        func field(_ name: String) throws(FCMServiceAccountError) -> String {
            guard case .string(let value)? = object[name], !value.isEmpty else {
                throw FCMServiceAccountError("Firebase service account file has no \(name)")
            }
            return value
        }
        projectID = try field("project_id")
        clientEmail = try field("client_email")
        privateKeyID = try field("private_key_id")
        let pem = try field("private_key")
        if case .string(let uri)? = object["token_uri"], !uri.isEmpty {
            // The signed assertion travels to it: only over TLS, but for a
            // lab's endpoint on this machine.
            guard let url = URLComponents(string: uri), let host = url.host,
                  url.scheme == "https" || (url.scheme == "http" && Self.loopbackHosts.contains(host)) else {
                throw FCMServiceAccountError(
                    "Firebase service account token_uri must be an https URL (http only on 127.0.0.1 or localhost)")
            }
            tokenURI = uri
        } else {
            tokenURI = Self.defaultTokenURI
        }
        do {
            privateKey = try Insecure.RSA.PrivateKey(pem: pem)
        } catch {
            throw FCMServiceAccountError("Firebase service account private_key is not an RSA private key of 2048 bits or more")
        }
    }
}

extension FCMServiceAccount {
    /// Hosts a lab's token endpoint may be reached on without TLS.
    static let loopbackHosts: Set<String> = ["127.0.0.1", "localhost", "::1", "[::1]"]
}

extension FCMServiceAccount: CustomStringConvertible {
    /// The account without its key, for logs and error messages.
    public var description: String {
        "FCMServiceAccount(project_id: \(projectID), client_email: \(clientEmail), token_uri: \(tokenURI))"
    }
}
