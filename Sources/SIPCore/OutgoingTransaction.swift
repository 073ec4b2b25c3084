import CSofiaShim
import CSofiaSIP

/// Creates a client transaction for a message sipwake built or forwards:
/// sent to `route`, over `transport` when the request must reuse a phone's
/// connection. The owner is retained for Sofia's callback; if Sofia refuses,
/// the owner is released and the message destroyed, and the result is nil.
enum OutgoingTransaction {
    typealias Callback = @convention(c) (OpaquePointer?, OpaquePointer?, UnsafePointer<sip_t>?) -> Int32

    static func create<Owner: AnyObject>(agent: OpaquePointer, callback: Callback, owner: Owner, route: String,
                                         message msg: OpaquePointer, transport: OpaquePointer?)
        -> (orq: OpaquePointer, box: Unmanaged<Owner>)? {
        let box = Unmanaged.passRetained(owner)
        let extra = SofiaTagList()
        if let transport { extra.pointer(swk_tag_ntatag_tport(), transport) }
        let orq = extra.withTags { list in
            route.withCString { r in
                swk_nta_outgoing_mcreate(agent, callback, OpaquePointer(box.toOpaque()), swk_url_string(r), msg, list)
            }
        }
        guard let orq else {
            box.release()
            msg_destroy(msg)
            return nil
        }
        return (orq, box)
    }
}
