import JWTKit

/// Reads the keys JWTs are checked with: a private key stands for its
/// public key, so an operator can hand the sink the very file the sender signs with.
public enum PushSinkKeys {
    /// An APNs signing key: a `.p8` (PKCS#8 P-256 private key) or its public key.
    public static func apnsKey(pem: String) throws(PushSinkError) -> ES256PublicKey {
        if pem.contains("PRIVATE KEY-----") {
            do { return try ES256PrivateKey(pem: pem).publicKey } catch {
                throw PushSinkError("not a P-256 private key (\(error))")
            }
        }
        do { return try ES256PublicKey(pem: pem) } catch {
            throw PushSinkError("not a P-256 public or private key in PEM (\(error))")
        }
    }

    /// A Google service account's key: an RSA private key (PKCS#8 or
    /// PKCS#1) or its public key, 2048 bits or more.
    public static func googleKey(pem: String) throws(PushSinkError) -> Insecure.RSA.PublicKey {
        if pem.contains("PRIVATE KEY-----") {
            do { return try Insecure.RSA.PrivateKey(pem: pem).publicKey } catch {
                throw PushSinkError("not an RSA private key of 2048 bits or more (\(error))")
            }
        }
        do { return try Insecure.RSA.PublicKey(pem: pem) } catch {
            throw PushSinkError("not an RSA public or private key in PEM of 2048 bits or more (\(error))")
        }
    }
}
