import Foundation

/// The fields of a Google service-account JSON file the sink needs.
public struct PushSinkServiceAccount: Sendable, Equatable {
    public var clientEmail: String
    /// The RSA private key, PEM.
    public var privateKeyPEM: String
    public var tokenURI: String?

    public init(clientEmail: String, privateKeyPEM: String, tokenURI: String? = nil) {
        self.clientEmail = clientEmail
        self.privateKeyPEM = privateKeyPEM
        self.tokenURI = tokenURI
    }

    /// Reads a service-account file's text; says which field is missing.
    public init(json data: Data) throws(PushSinkError) {
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw PushSinkError("not a JSON object")
        }
        guard let email = object["client_email"] as? String, !email.isEmpty else {
            throw PushSinkError("no client_email")
        }
        guard let key = object["private_key"] as? String, key.contains("PRIVATE KEY-----") else {
            throw PushSinkError("no PEM private_key")
        }
        self.init(clientEmail: email, privateKeyPEM: key, tokenURI: object["token_uri"] as? String)
    }
}
