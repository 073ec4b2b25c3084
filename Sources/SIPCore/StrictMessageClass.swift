import CSofiaSIP
import CSofiaShim
import Glibc

/// The SIP message class sipwake's agent parses with (`NTATAG_MCLASS`):
/// Sofia's default, except that a request line must be what RFC 3261 §25.1
/// says, `Method SP Request-URI SP SIP-Version`, single spaces and nothing
/// else. Sofia's own parser takes any run of white space between the three
/// and after them; a request line it would read the same way but that is not
/// written so is marked as an error, and Sofia answers it 400 itself, before
/// any transaction exists (and closes a stream that sent it).
///
/// The request-line class is Sofia's, copied, with its parse function
/// wrapped: the wrapper checks the line, then calls Sofia's parser. Owned by
/// `SIPAgent`; the class must outlive the agent. Loop thread only.
final class StrictMessageClass {
    let mclass: UnsafeMutablePointer<msg_mclass_t>
    private let requestLine: UnsafeMutablePointer<msg_hclass_t>

    init?() {
        guard let request = swk_sip_request_class(),
              let clone = msg_mclass_clone(sip_default_mclass(), 0, 0) else { return nil }
        mclass = UnsafeMutablePointer(mutating: clone)
        requestLine = UnsafeMutablePointer<msg_hclass_t>.allocate(capacity: 1)
        requestLine.initialize(to: request.pointee)
        requestLine.pointee.hc_parse = { home, header, text, length in
            StrictMessageClass.parseRequestLine(home, header, text, length)
        }
        mclass.pointee.mc_request.hr_class = UnsafePointer(requestLine)
    }

    deinit {
        // msg_mclass_clone() allocates with malloc().
        free(mclass)
        requestLine.deallocate()
    }

    /// Sofia's request-line parser, after the check. `home` is the message's
    /// home, which is the message itself (`msg_home()` in msg.h).
    private static func parseRequestLine(_ home: UnsafeMutablePointer<su_home_t>?,
                                         _ header: UnsafeMutablePointer<msg_header_t>?,
                                         _ text: UnsafeMutablePointer<CChar>?, _ length: isize_t) -> issize_t {
        let strict = text.map { isStrict(UnsafeRawPointer($0), Int(length)) } ?? false
        guard let parse = swk_sip_request_class()?.pointee.hc_parse else { return -1 }
        let result = parse(home, header, text, length)
        if result >= 0, !strict, let home {
            _ = msg_set_flags(OpaquePointer(home), UInt32(MSG_FLG_ERROR.rawValue))
        }
        return result
    }

    /// Exactly two single spaces between three non-empty parts, and no other
    /// white space (the line arrives without its CRLF and leading space).
    static func isStrict(_ bytes: UnsafeRawPointer, _ count: Int) -> Bool {
        var spaces = 0
        var previousWasSpace = true
        for index in 0..<count {
            let byte = bytes.load(fromByteOffset: index, as: UInt8.self)
            switch byte {
            case UInt8(ascii: " "):
                if previousWasSpace { return false }
                spaces += 1
                previousWasSpace = true
            case UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"), 0:
                return false
            default:
                previousWasSpace = false
            }
        }
        return spaces == 2 && !previousWasSpace
    }
}
