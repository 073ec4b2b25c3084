import Foundation

extension UUID {
    /// A random (version 4) UUID from the system's generator, for the ids
    /// the SIP loop makes for every call and push (pairing ids, Call-IDs,
    /// push event ids). Foundation's `UUID()` opens, reads and closes
    /// `/dev/urandom` for each one; this is one `getrandom` call per half.
    public static func random() -> UUID {
        var generator = SystemRandomNumberGenerator()
        let halves = (generator.next() as UInt64, generator.next() as UInt64)
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &uuid) { bytes in
            withUnsafeBytes(of: halves) { bytes.copyMemory(from: $0) }
            bytes[6] = (bytes[6] & 0x0F) | 0x40  // version 4
            bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 4122 variant
        }
        return UUID(uuid: uuid)
    }
}
