import Crypto
import Foundation

/// The signature of a webhook request, in its `X-Sipwake-Signature` header:
///
///     X-Sipwake-Signature: t=1712759400,v1=5257a869…,v1=9f86d081…
///
/// `t` is the Unix time of signing; each `v1` is the hex HMAC-SHA256, keyed
/// with one of the endpoint's secrets (as UTF-8 bytes), of the text `t`, a
/// `.`, then the raw request body. The backend recomputes it with its secret
/// over the body exactly as received, compares in constant time, and refuses
/// a `t` too far from its clock (a replay). docs/push.md has the check in
/// Python and Node.
public enum WebhookSignature {
    /// The header's name.
    public static let headerName = "X-Sipwake-Signature"

    /// The header's value for `body` signed at `timestamp` with each of `secrets`.
    public static func header(body: Data, timestamp: Int, secrets: [String]) -> String {
        (["t=\(timestamp)"] + secrets.map { "v1=\(signature(body: body, timestamp: timestamp, secret: $0))" })
            .joined(separator: ",")
    }

    /// The hex HMAC-SHA256 of `"<timestamp>.<body>"` keyed with `secret`.
    public static func signature(body: Data, timestamp: Int, secret: String) -> String {
        var message = Data("\(timestamp).".utf8)
        message.append(body)
        let code = HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: Data(secret.utf8)))
        return code.map { String(format: "%02x", $0) }.joined()
    }
}
