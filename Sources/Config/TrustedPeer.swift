/// An IP address or CIDR range whose requests are not challenged (`[auth] trusted_peers`):
/// typically the PBX.
///
/// Accepted forms: `127.0.0.2`, `10.0.0.0/8`, `::1`, `2001:db8::/32`. A single address
/// is a /32 (IPv4) or /128 (IPv6). Host bits set in a range (`10.1.2.3/8`) are cleared.
public struct TrustedPeer: Sendable, Hashable, CustomStringConvertible {
    /// The network address: 4 bytes (IPv4) or 16 bytes (IPv6), host bits zero.
    public let network: [UInt8]
    /// 0...32 for IPv4, 0...128 for IPv6.
    public let prefixLength: Int

    /// Parses an address or a CIDR range; nil when `text` is neither.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let bytes = IPAddress.bytes(String(parts[0])) else { return nil }
        let maximum = bytes.count * 8
        var prefix = maximum
        if parts.count == 2 {
            let digits = parts[1]
            guard !digits.isEmpty, digits.count <= 3, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let value = Int(digits), value <= maximum
            else { return nil }
            prefix = value
        }
        self.network = TrustedPeer.masked(bytes, prefix)
        self.prefixLength = prefix
    }

    public var isIPv6: Bool { network.count == 16 }

    /// Whether `address` (IPv4 or IPv6 text, IPv6 optionally in brackets or with a
    /// `%zone`) is inside this range. An IPv4-mapped IPv6 address (`::ffff:10.1.2.3`)
    /// matches IPv4 ranges, and an IPv4 address matches IPv6 ranges as `::ffff:a.b.c.d`.
    /// Text that is not an IP address is never contained.
    public func contains(_ address: String) -> Bool {
        var text = Substring(address)
        if text.hasPrefix("["), text.hasSuffix("]") { text = text.dropFirst().dropLast() }
        if let percent = text.firstIndex(of: "%") { text = text[..<percent] }
        guard var bytes = IPAddress.bytes(String(text)) else { return false }
        if network.count == 4, let v4 = IPAddress.unmappedIPv4(bytes) {
            bytes = v4
        } else if network.count == 16, bytes.count == 4 {
            bytes = Array(repeating: 0, count: 10) + [0xff, 0xff] + bytes
        }
        guard bytes.count == network.count else { return false }
        return TrustedPeer.masked(bytes, prefixLength) == network
    }

    /// `10.0.0.0/8`, or the bare address for a single host.
    public var description: String {
        let address = IPAddress.text(network)
        return prefixLength == network.count * 8 ? address : "\(address)/\(prefixLength)"
    }

    private static func masked(_ bytes: [UInt8], _ prefix: Int) -> [UInt8] {
        bytes.enumerated().map { index, byte in
            let bitsInThisByte = min(8, max(0, prefix - index * 8))
            let mask: UInt8 = bitsInThisByte == 0 ? 0 : ~UInt8(0) << (8 - bitsInThisByte)
            return byte & mask
        }
    }
}
