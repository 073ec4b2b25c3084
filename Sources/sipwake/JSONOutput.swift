import Foundation

/// JSON for `--json`: stable key order, ISO 8601 UTC times.
enum JSONOutput {
    static func print(_ value: Any) throws {
        let data = try JSONSerialization.data(withJSONObject: value, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        Swift.print(String(decoding: data, as: UTF8.self))
    }

    static func timestamp(_ date: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        return f.string(from: date)
    }
}
