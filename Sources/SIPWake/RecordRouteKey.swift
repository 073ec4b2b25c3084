import Crypto

/// The key of the Record-Route tokens, keyed once: HMAC-SHA-256's inner and
/// outer pads are hashed when the server starts, and each token copies that
/// state instead of hashing the key again on the SIP loop.
struct RecordRouteKey {
    private let keyed: HMAC<SHA256>

    init(secret: [UInt8]) {
        keyed = HMAC<SHA256>(key: SymmetricKey(data: secret))
    }

    /// The first 8 bytes of the HMAC of `parts`, joined by `|`.
    func code(_ parts: String...) -> [UInt8] {
        var hmac = keyed
        for (index, part) in parts.enumerated() {
            if index > 0 { hmac.update(data: [UInt8(ascii: "|")]) }
            var part = part
            part.withUTF8 { hmac.update(data: UnsafeRawBufferPointer($0)) }
        }
        return Array(hmac.finalize().prefix(8))
    }
}
