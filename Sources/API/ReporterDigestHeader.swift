/// Parses an HTTP `Authorization: Digest …` header (RFC 7616 §3.4) into its
/// parameters: names lower-cased, quoted strings unquoted and unescaped.
enum ReporterDigestHeader {
    /// nil when the scheme is not Digest; `[:]`-like partial results are left
    /// to `DigestCredentials`, which refuses missing parameters.
    /// - Throws: `APIError` 400 when the parameter list is malformed.
    static func parameters(_ header: String) throws -> [String: String]? {
        let trimmed = header.drop { $0 == " " }
        guard let space = trimmed.firstIndex(of: " "), trimmed[..<space].lowercased() == "digest" else { return nil }
        var scanner = Array(trimmed[trimmed.index(after: space)...])[...]
        var parameters: [String: String] = [:]
        while true {
            skip(&scanner, while: { $0 == " " || $0 == "\t" || $0 == "," })
            if scanner.isEmpty { break }
            let name = take(&scanner, while: { $0 != "=" && $0 != " " && $0 != "," })
            skip(&scanner, while: { $0 == " " })
            guard !name.isEmpty, scanner.first == "=" else { throw malformed() }
            scanner = scanner.dropFirst()
            skip(&scanner, while: { $0 == " " })
            var value = ""
            if scanner.first == "\"" {
                scanner = scanner.dropFirst()
                var closed = false
                while let character = scanner.first {
                    scanner = scanner.dropFirst()
                    if character == "\\" {
                        guard let escaped = scanner.first else { throw malformed() }
                        value.append(escaped)
                        scanner = scanner.dropFirst()
                    } else if character == "\"" {
                        closed = true
                        break
                    } else {
                        value.append(character)
                    }
                }
                guard closed else { throw malformed() }
            } else {
                value = String(take(&scanner, while: { $0 != "," && $0 != " " }))
            }
            parameters[String(name).lowercased()] = value
        }
        return parameters
    }

    private static func malformed() -> APIError {
        APIError(.badRequest, "malformed Authorization header")
    }

    private static func skip(_ scanner: inout ArraySlice<Character>, while predicate: (Character) -> Bool) {
        while let first = scanner.first, predicate(first) { scanner = scanner.dropFirst() }
    }

    private static func take(_ scanner: inout ArraySlice<Character>, while predicate: (Character) -> Bool) -> String {
        var out = ""
        while let first = scanner.first, predicate(first) {
            out.append(first)
            scanner = scanner.dropFirst()
        }
        return out
    }
}
