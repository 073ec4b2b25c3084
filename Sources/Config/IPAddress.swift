#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// IPv4 and IPv6 text ⇄ bytes, through `inet_pton` / `inet_ntop`.
enum IPAddress {
    /// 4 bytes for IPv4, 16 for IPv6; nil when `text` is neither.
    /// Brackets around IPv6 and a `%zone` suffix are not accepted here.
    static func bytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { Array($0) }
        }
        return nil
    }

    /// The canonical text of 4 or 16 bytes.
    static func text(_ bytes: [UInt8]) -> String {
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let ok = bytes.withUnsafeBytes { raw in
            inet_ntop(family, raw.baseAddress, &buffer, socklen_t(buffer.count)) != nil
        }
        guard ok else { return bytes.map(String.init).joined(separator: ".") }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The IPv4 address inside an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`), if it is one.
    static func unmappedIPv4(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count == 16, bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xff, bytes[11] == 0xff
        else { return nil }
        return Array(bytes[12..<16])
    }
}
