import Foundation
import Model

/// JSON for `--json`: stable key order, ISO 8601 UTC times.
enum JSONOutput {
    static func print(_ value: some Encodable) throws {
        let encoder = JSONStyle.encoder(pretty: true)
        Swift.print(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    static func timestamp(_ date: Date) -> String {
        ISO8601Time.seconds(date)
    }
}
