import Crypto
import Foundation

/// A JWT as a request carried it, read but not yet verified: its header's
/// `alg` and `kid` and its claims. Records name a JWT by `kid`, `iss` and
/// age, never by its text.
struct PushSinkJWT: Sendable {
    /// The compact form, for signature checks only.
    let text: String
    let algorithm: String?
    let keyID: String?
    let claims: [String: PushSinkJSON]

    /// Nil unless `text` is three base64url parts whose first two are JSON objects.
    init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[2].isEmpty,
              let header = Self.decode(parts[0]).flatMap(PushSinkJSON.init(data:))?.object,
              let claims = Self.decode(parts[1]).flatMap(PushSinkJSON.init(data:))?.object else { return nil }
        self.text = text
        algorithm = header["alg"]?.string
        keyID = header["kid"]?.string
        self.claims = claims
    }

    var issuer: String? { claims["iss"]?.string }

    /// A numeric claim (`iat`, `exp`), nil when absent or not a number.
    func time(_ name: String) -> Double? {
        if case .number(let value) = claims[name] { return value }
        return nil
    }

    /// Whole seconds from `iat` to `now`; nil without `iat`.
    func age(at now: Date) -> Int? {
        time("iat").map { Int((now.timeIntervalSince1970 - $0).rounded(.down)) }
    }

    /// A digest that names this JWT in memory without keeping its text.
    var digest: String {
        SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    private static func decode(_ part: Substring) -> Data? {
        var base64 = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64.append("=") }
        return Data(base64Encoded: base64)
    }
}
