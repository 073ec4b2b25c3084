import Foundation

/// How sipwake writes the JSON that operators and their programs read (the
/// admin API, the reporters' answers, the CLI's `--json`): snake_case keys
/// made from the Swift property names (`pairingID` → `pairing_id`), keys
/// sorted, slashes unescaped. The `…JSON` types in this module are written
/// for this encoder.
public enum JSONStyle {
    public static func encoder(pretty: Bool = false) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = pretty
            ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
