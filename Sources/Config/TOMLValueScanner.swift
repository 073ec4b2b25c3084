/// Follows a TOML value across lines: open brackets and multi-line strings, so that
/// `TOMLKeyLocator` does not read `key = ` inside them.
struct TOMLValueScanner {
    private var depth = 0
    private var multilineDelimiter: String?

    /// Whether the previous lines left a value open.
    var isInsideValue: Bool { depth > 0 || multilineDelimiter != nil }

    mutating func scan(_ text: Substring) {
        let characters = Array(text)
        var index = 0
        func startsWith(_ delimiter: String) -> Bool {
            let pattern = Array(delimiter)
            return index + pattern.count <= characters.count && Array(characters[index..<index + pattern.count]) == pattern
        }
        while index < characters.count {
            if let delimiter = multilineDelimiter {
                if delimiter == "\"\"\"", characters[index] == "\\" {
                    index += 2
                } else if startsWith(delimiter) {
                    multilineDelimiter = nil
                    index += 3
                } else {
                    index += 1
                }
                continue
            }
            switch characters[index] {
            case "#":
                return
            case "\"" where startsWith("\"\"\""), "'" where startsWith("'''"):
                multilineDelimiter = String(characters[index..<index + 3])
                index += 3
            case "\"", "'":
                let quote = characters[index]
                index += 1
                while index < characters.count, characters[index] != quote {
                    index += (quote == "\"" && characters[index] == "\\") ? 2 : 1
                }
                index += 1
            case "[", "{":
                depth += 1
                index += 1
            case "]", "}":
                depth = max(0, depth - 1)
                index += 1
            default:
                index += 1
            }
        }
    }
}
