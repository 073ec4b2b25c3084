import Foundation

/// The parameters of one `WWW-Authenticate: Digest ...` challenge.
public struct DigestChallengeFields: Sendable, Equatable {
    public var realm: String
    public var nonce: String
    /// Absent means MD5 (RFC 2617).
    public var algorithm: String
    public var qop: [String]
    public var opaque: String?

    public init(realm: String, nonce: String, algorithm: String = "MD5", qop: [String] = ["auth"], opaque: String? = nil) {
        self.realm = realm
        self.nonce = nonce
        self.algorithm = algorithm
        self.qop = qop
        self.opaque = opaque
    }

    /// Nil unless it is a Digest challenge with a realm and a nonce.
    public init?(header: String) {
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("digest ") else { return nil }
        let parameters = Self.parameters(String(trimmed.dropFirst(7)))
        guard let realm = parameters["realm"], let nonce = parameters["nonce"] else { return nil }
        self.realm = realm
        self.nonce = nonce
        algorithm = parameters["algorithm"] ?? "MD5"
        qop = (parameters["qop"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        opaque = parameters["opaque"]
    }

    /// `name=value, name="quoted, value"` → lower-case names to values.
    static func parameters(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        var characters = Array(text)[...]
        while !characters.isEmpty {
            while let first = characters.first, first == " " || first == "," || first == "\t" { characters.removeFirst() }
            let name = String(characters.prefix { $0 != "=" && $0 != "," }).trimmingCharacters(in: .whitespaces).lowercased()
            characters = characters.drop { $0 != "=" && $0 != "," }
            guard characters.first == "=" else { continue }
            characters.removeFirst()
            while characters.first == " " { characters.removeFirst() }
            var value = ""
            if characters.first == "\"" {
                characters.removeFirst()
                while let next = characters.first, next != "\"" {
                    characters.removeFirst()
                    if next == "\\", let escaped = characters.first {
                        value.append(escaped)
                        characters.removeFirst()
                    } else {
                        value.append(next)
                    }
                }
                if !characters.isEmpty { characters.removeFirst() }
            } else {
                value = String(characters.prefix { $0 != "," }).trimmingCharacters(in: .whitespaces)
                characters = characters.drop { $0 != "," }
            }
            if !name.isEmpty { result[name] = value }
        }
        return result
    }
}
