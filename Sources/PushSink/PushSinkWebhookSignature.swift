import Crypto
import Foundation

/// The check a customer's backend makes of sipwake's `X-Sipwake-Signature`
/// header (`t=UNIX,v1=HEX[,v1=HEX]`, each HEX the HMAC-SHA256 of
/// `"<t>.<raw body>"` keyed with one secret), written here apart from
/// sipwake's signer so that a mistake in one is not repeated in the other.
enum PushSinkWebhookSignature {
    /// What the check found: `valid`, or why the request is refused.
    enum Verdict: String, Sendable {
        case valid
        case missing
        case malformed
        case stale
        case invalid
    }

    static func check(header: String?, body: Data, secrets: [String], tolerance: Int, now: Date) -> Verdict {
        guard let header else { return .missing }
        var timestamp: Int?
        var signatures: [Data] = []
        for part in header.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else { return .malformed }
            switch pair[0] {
            case "t": timestamp = Int(pair[1])
            case "v1":
                guard let bytes = hexBytes(pair[1]) else { return .malformed }
                signatures.append(bytes)
            default: continue
            }
        }
        guard let timestamp, !signatures.isEmpty else { return .malformed }
        // Any number may come in `t`: no arithmetic on it that could overflow.
        let skew = Int(now.timeIntervalSince1970).subtractingReportingOverflow(timestamp)
        guard !skew.overflow, skew.partialValue.magnitude <= UInt(max(0, tolerance)) else { return .stale }
        var message = Data("\(timestamp).".utf8)
        message.append(body)
        for secret in secrets {
            let key = SymmetricKey(data: Data(secret.utf8))
            // Constant-time comparison.
            if signatures.contains(where: { HMAC<SHA256>.isValidAuthenticationCode($0, authenticating: message, using: key) }) {
                return .valid
            }
        }
        return .invalid
    }

    static func hexBytes(_ text: String) -> Data? {
        guard text.count % 2 == 0 else { return nil }
        var bytes = Data()
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            guard let byte = UInt8(text[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }
}
