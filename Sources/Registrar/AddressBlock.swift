import Foundation

/// The unit the flood and guessing limits count by: an IPv4 address as it
/// is, an IPv6 address by its /64. One subscriber (or one attacker) holds a
/// whole /64 and can send from 2^64 addresses, so counting IPv6 addresses
/// one by one would give it a fresh limit per request. Logs keep the full
/// address; only the limits use the block.
public enum AddressBlock {
    /// `2001:db8:1:2::/64` for any address in that /64 (any spelling, with or
    /// without brackets or a zone); anything else is returned as it is.
    public static func key(for host: String) -> String {
        var text = host
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        if let zone = text.firstIndex(of: "%") { text = String(text[..<zone]) }
        guard text.contains(":") else { return host }
        var address = in6_addr()
        guard inet_pton(AF_INET6, text, &address) == 1 else { return host }
        let bytes = withUnsafeBytes(of: &address) { Array($0) }
        let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
        return groups.joined(separator: ":") + "::/64"
    }
}
