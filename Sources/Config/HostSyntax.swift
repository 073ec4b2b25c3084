/// What a host may look like in the configuration: a DNS name, an IPv4 address,
/// or an IPv6 address.
enum HostSyntax {
    /// A `[sip] listen` host: name, IPv4, or IPv6 in brackets. Returns it with the
    /// brackets removed; nil when invalid (an unbracketed IPv6 address is ambiguous there).
    static func listenHost(_ text: String) -> String? {
        if text.hasPrefix("["), text.hasSuffix("]"), text.count > 2 {
            let inner = String(text.dropFirst().dropLast())
            guard inner.contains(":"), let bytes = IPAddress.bytes(inner), bytes.count == 16 else { return nil }
            return inner
        }
        if text.contains(":") { return nil }
        if IPAddress.bytes(text) != nil { return text }
        return isHostName(text) ? text : nil
    }

    /// A host written on its own (`public_host`, `domains`): name, IPv4, or IPv6 with or
    /// without brackets. Returns the IPv6 address without brackets; nil when invalid.
    static func bareHost(_ text: String) -> String? {
        if text.hasPrefix("[") { return listenHost(text) }
        if text.contains(":") { return IPAddress.bytes(text)?.count == 16 ? text : nil }
        return listenHost(text)
    }

    /// RFC 1123 host name: dot-separated labels of letters, digits and inner hyphens,
    /// the last one not all digits (`1.2.3` is a broken IPv4 address, not a name).
    static func isHostName(_ text: String) -> Bool {
        guard !text.isEmpty, text.utf8.count <= 253 else { return false }
        let labels = text.split(separator: ".", omittingEmptySubsequences: false)
        if let last = labels.last, last.allSatisfy({ $0.isASCII && $0.isNumber }) { return false }
        return labels.allSatisfy { label in
            guard (1...63).contains(label.count), label.first != "-", label.last != "-" else { return false }
            return label.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-")
            }
        }
    }
}
