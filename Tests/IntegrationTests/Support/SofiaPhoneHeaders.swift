/// The header fields of a SIP message a test phone received, read from the
/// message text: names lower-cased (compact forms expanded), one value per
/// header line, in message order. A line such as `Via: a, b` stays one value.
struct SofiaPhoneHeaders: Sendable {
    /// Lower-cased header name to its values.
    let fields: [String: [String]]
    /// The first line of the message (request line or status line).
    let startLine: String
    /// The message body, when there is one.
    let body: String?

    init(text: String) {
        var fields: [String: [String]] = [:]
        var lastName: String?
        let parts = text.components(separatedBy: "\r\n\r\n")
        let head = parts.first ?? ""
        let rest = parts.dropFirst().joined(separator: "\r\n\r\n")
        body = rest.isEmpty ? nil : rest
        let lines = head.components(separatedBy: "\r\n")
        startLine = lines.first ?? ""
        for line in lines.dropFirst() {
            if line.first == " " || line.first == "\t", let name = lastName, var values = fields[name], !values.isEmpty {
                values[values.count - 1] += " " + line.trimmingCharacters(in: .whitespaces)
                fields[name] = values
                continue
            }
            guard let colon = line.firstIndex(of: ":") else { continue }
            let raw = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let name = SofiaPhoneHeaders.compactForms[raw] ?? raw
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            fields[name, default: []].append(value)
            lastName = name
        }
        self.fields = fields
    }

    /// Every value of a header, by case-insensitive name.
    subscript(_ name: String) -> [String] {
        fields[name.lowercased()] ?? []
    }

    /// The first value of a header, by case-insensitive name.
    func first(_ name: String) -> String? {
        self[name].first
    }

    /// RFC 3261 §7.3.3 compact header names.
    private static let compactForms: [String: String] = [
        "i": "call-id", "m": "contact", "e": "content-encoding", "l": "content-length",
        "c": "content-type", "f": "from", "s": "subject", "k": "supported", "t": "to",
        "v": "via", "o": "event", "u": "allow-events", "r": "refer-to", "b": "referred-by",
        "x": "session-expires", "a": "accept-contact", "j": "reject-contact", "y": "identity",
    ]
}
