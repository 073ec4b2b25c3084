import CSofiaSIP

/// Turning Sofia's encoders (`url_e`, `msg_header_field_e`) into Swift strings.
enum SofiaText {
    /// Calls an encoder that writes into a buffer and returns the length it
    /// needed, growing the buffer once when the first try was too small.
    static func encode(_ encoder: (UnsafeMutablePointer<CChar>, isize_t) -> issize_t) -> String {
        var size = 512
        for _ in 0..<2 {
            var buffer = [CChar](repeating: 0, count: size + 1)
            let needed = Int(buffer.withUnsafeMutableBufferPointer { encoder($0.baseAddress!, isize_t(size)) })
            if needed < 0 { return "" }
            if needed < size {
                return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            }
            size = needed + 1
        }
        return ""
    }

    static func string(_ p: UnsafePointer<CChar>?) -> String? {
        p.map { String(cString: $0) }
    }
}
