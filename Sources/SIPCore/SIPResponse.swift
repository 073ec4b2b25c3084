import CSofiaSIP
import CSofiaShim

/// A response received on a client transaction, kept so it can be relayed
/// upstream now or later (the best response of a fork is chosen once every
/// branch has answered). Owns a reference to the message. Loop thread only.
public final class SIPResponse {
    private var msg: OpaquePointer?
    public let status: Int
    public let phrase: String
    /// Whether Sofia made this response itself (a timeout, a transport
    /// error) rather than receiving it: nothing came from the next hop.
    public let isSofiaMade: Bool

    /// The message flag Sofia's transaction layer sets on the responses it
    /// makes itself (`NTA_INTERNAL_MSG` in its private `nta_internal.h`,
    /// unchanged since Sofia-SIP 1.12's first release).
    static let internalMessageFlag: UInt32 = 1 << 15

    init?(taking msg: OpaquePointer) {
        guard let sip = swk_sip_object(msg), let st = sip.pointee.sip_status else {
            msg_destroy(msg)
            return nil
        }
        self.msg = msg
        self.status = Int(st.pointee.st_status)
        self.phrase = SofiaText.string(st.pointee.st_phrase) ?? ""
        self.isSofiaMade = msg_get_flags(msg, Self.internalMessageFlag) != 0
    }

    deinit {
        if let msg { msg_destroy(msg) }
    }

    /// A read-only view; nil once the response has been relayed.
    public var message: SIPMessage? { msg.flatMap { SIPMessage(msg: $0) } }

    /// A copy of the message as received, this proxy's Via still on top
    /// (Sofia's stateless send removes it and routes by the next one).
    func copyForStatelessRelay() -> OpaquePointer? {
        msg.flatMap { msg_dup($0) }
    }

    /// A copy of the message with this proxy's Via (the topmost) removed, as
    /// RFC 3261 §16.7 step 3 says, ready to be sent upstream.
    func copyForRelay() -> OpaquePointer? {
        guard let msg, let copy = msg_dup(msg), let sip = swk_sip_object(copy) else { return nil }
        if let via = sip.pointee.sip_via {
            let pub = UnsafeMutableRawPointer(sip).assumingMemoryBound(to: msg_pub_t.self)
            msg_header_remove(copy, pub, UnsafeMutableRawPointer(via).assumingMemoryBound(to: msg_header_t.self))
        }
        return copy
    }
}
