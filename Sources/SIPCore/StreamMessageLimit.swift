import CSofiaSIP
import Glibc

/// Keeps `sip.max_message_size` on every message of a TCP or TLS stream.
///
/// Sofia-SIP gives the first message read from a connection the agent's size
/// limit, but when one read holds the end of one message and the start of
/// the next, the next message is made by `msg_next()`, which does not copy the
/// limit: a pipelined message then has none, and its `Content-Length` alone
/// (2^31, say) makes Sofia allocate that much, or abort on its 31-bit
/// allocator assertion. Sofia's own fragment path copies the limit; this one
/// forgot to.
///
/// The fix is the smallest patch that works with the Debian package: sipwake
/// exports its own `msg_next`, which the dynamic linker binds ahead of
/// Sofia's (Sofia's transport layer calls it through the PLT). It calls
/// Sofia's original and copies the limit onto the new message, so every
/// message of a stream is bounded from its first byte: a body, header or
/// request line larger than the limit stops the stream, which sipwake then
/// closes (`ConnectionTable.sweep`), and only that connection.
/// `isInstalled` tells whether the dynamic linker took it; `SIPAgent` refuses
/// to open stream listeners when it did not.
public enum StreamMessageLimit {
    typealias NextFunction = @convention(c) (OpaquePointer?) -> OpaquePointer?

    /// Sofia's own `msg_next`, the next definition after this executable's.
    static let sofiaNext: NextFunction? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: -1), "msg_next") else { return nil }
        return unsafeBitCast(symbol, to: NextFunction.self)
    }()

    /// True when `msg_next` resolves to sipwake's definition, not Sofia's.
    public static var isInstalled: Bool {
        guard let first = dlsym(nil, "msg_next"),
              let sofia = dlsym(UnsafeMutableRawPointer(bitPattern: -1), "msg_next") else { return false }
        return first != sofia
    }
}

/// Sofia's `msg_next()` plus the size limit of the message it follows. Called
/// by Sofia only, on the SIP loop.
@_cdecl("msg_next")
public func sipwakeMessageNext(_ msg: OpaquePointer?) -> OpaquePointer? {
    guard let sofiaNext = StreamMessageLimit.sofiaNext else { return nil }
    let next = sofiaNext(msg)
    if let msg, let next {
        // msg_maxsize(m, 0) reads the limit without changing it.
        let limit = msg_maxsize(msg, 0)
        if limit != 0 { _ = msg_maxsize(next, limit) }
    }
    return next
}
