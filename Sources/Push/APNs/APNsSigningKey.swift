import JWTKit

/// An APNs token signing key: the `.p8` file Apple gives (a PKCS#8 PEM of an
/// EC P-256 private key). Reading it checks it, so `sipwake config check` can
/// tell an operator that the file is not such a key before any push is sent.
public struct APNsSigningKey: Sendable {
    let key: ES256PrivateKey

    /// Reads the key from the `.p8` file's text.
    public init(pem: String) throws(APNsSigningKeyError) {
        guard pem.contains("-----BEGIN ") else {
            throw APNsSigningKeyError("APNs signing key is not a PEM private key (expected the .p8 file Apple gave, starting with -----BEGIN PRIVATE KEY-----)")
        }
        do {
            key = try ES256PrivateKey(pem: pem)
        } catch {
            throw APNsSigningKeyError("APNs signing key is not an EC P-256 private key (ES256): check that the .p8 file is the one Apple gave and is complete")
        }
    }
}

extension APNsSigningKey: CustomStringConvertible {
    /// Never the key itself.
    public var description: String { "APNsSigningKey(ES256)" }
}
