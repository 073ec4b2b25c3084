import Crypto

/// The digest hash functions H and KD of RFC 2617 §3.2.2 / RFC 7616 §3.4,
/// as lowercase hex strings.
public enum DigestHash {
    /// H(data): the algorithm's hash of the UTF-8 bytes, lowercase hex.
    public static func hash(_ data: String, algorithm: DigestAlgorithm) -> String {
        let bytes = Array(data.utf8)
        switch algorithm {
        case .md5: return hex(Insecure.MD5.hash(data: bytes))
        case .sha256: return hex(SHA256.hash(data: bytes))
        }
    }

    /// HA1 = H(username ":" realm ":" password) (RFC 2617 §3.2.2.2,
    /// RFC 7616 §3.4.2). This is what the user store keeps instead of the password.
    public static func ha1(username: String, realm: String, password: String, algorithm: DigestAlgorithm) -> String {
        hash("\(username):\(realm):\(password)", algorithm: algorithm)
    }

    /// The request-digest (RFC 2617 §3.2.2.1, RFC 7616 §3.4.1) for qop=auth:
    /// KD(HA1, nonce:nc:cnonce:qop:HA2) with HA2 = H(method:digest-uri);
    /// without qop (RFC 2069 compatibility): KD(HA1, nonce:HA2).
    public static func response(
        ha1: String, nonce: String, method: String, uri: String,
        qop: String?, nc: String?, cnonce: String?, algorithm: DigestAlgorithm
    ) -> String {
        let ha2 = hash("\(method):\(uri)", algorithm: algorithm)
        if let qop {
            return hash("\(ha1):\(nonce):\(nc ?? ""):\(cnonce ?? ""):\(qop):\(ha2)", algorithm: algorithm)
        }
        return hash("\(ha1):\(nonce):\(ha2)", algorithm: algorithm)
    }

    private static func hex<D: Sequence>(_ digest: D) -> String where D.Element == UInt8 {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in digest {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
