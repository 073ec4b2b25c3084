/// Decodes `application/x-www-form-urlencoded` text (a POST body or a query
/// string) into name/value pairs, in order: `+` is a space, `%HH` a byte, the
/// result must be UTF-8. Duplicates are kept: `ReporterRequest` decides.
enum ReporterFormDecoder {
    /// - Throws: `APIError` 400 when a `%` escape or the UTF-8 is invalid.
    static func decode(_ text: Substring) throws -> [(name: String, value: String)] {
        var pairs: [(name: String, value: String)] = []
        for part in text.split(separator: "&", omittingEmptySubsequences: true) {
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = try unescape(pieces[0])
            let value = pieces.count > 1 ? try unescape(pieces[1]) : ""
            if name.isEmpty { continue }
            pairs.append((name, value))
        }
        return pairs
    }

    private static func unescape(_ text: Substring) throws -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"):
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    throw APIError(.badRequest, "malformed form data: a '%' is not followed by two hex digits")
                }
                bytes.append(high << 4 | low)
            default:
                bytes.append(byte)
            }
        }
        guard let string = String(validating: bytes, as: UTF8.self) else {
            throw APIError(.badRequest, "malformed form data: not UTF-8 once decoded")
        }
        return string
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
