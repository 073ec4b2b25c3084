import CSofiaSIP
import CSofiaShim

/// A client transaction (`nta_outgoing_t`) this server started, kept alive
/// until its final response (or Sofia's timeout, reported as 408) arrives.
/// The transaction is destroyed on the next loop turn, never inside its own
/// callback. Loop thread only.
public final class OutgoingRequest {
    private let loop: SIPLoop
    private let onFinal: (Int) -> Void
    fileprivate var orq: OpaquePointer?

    init(loop: SIPLoop, onFinal: @escaping (Int) -> Void) {
        self.loop = loop
        self.onFinal = onFinal
    }

    static let callback: @convention(c) (OpaquePointer?, OpaquePointer?, UnsafePointer<sip_t>?) -> Int32 = { magic, orq, sip in
        guard let magic else { return 0 }
        let box = Unmanaged<OutgoingRequest>.fromOpaque(UnsafeRawPointer(magic))
        var status = Int(sip?.pointee.sip_status?.pointee.st_status ?? 0)
        if sip == nil, let orq { status = Int(nta_outgoing_status(orq)) }
        guard status >= 200 || sip == nil else { return 0 }
        box.takeRetainedValue().finish(status: max(status, 408))
        return 0
    }

    private func finish(status: Int) {
        onFinal(status)
        if let orq {
            self.orq = nil
            loop.deferRelease { nta_outgoing_destroy(orq) }
        }
    }

    /// Sends a request on `agent`. `tags` must carry the request line and
    /// headers (From, To, Call-ID, CSeq, Max-Forwards...); Sofia adds Via.
    /// `route` is where it goes (`sip:HOST:PORT;transport=udp`); `transport`,
    /// when given, is the connection to send it over. Returns false when
    /// Sofia refused it (and then `onFinal` is never called).
    @discardableResult
    static func send(agent: OpaquePointer, loop: SIPLoop, tags: SofiaTagList, route: String,
                     transport: OpaquePointer?, onFinal: @escaping (Int) -> Void) -> Bool {
        guard let msg = nta_msg_create(agent, 0) else { return false }
        guard tags.withTags({ swk_sip_add_tl(msg, swk_sip_object(msg), $0) }) >= 0 else {
            msg_destroy(msg)
            return false
        }
        let request = OutgoingRequest(loop: loop, onFinal: onFinal)
        guard let created = OutgoingTransaction.create(agent: agent, callback: OutgoingRequest.callback, owner: request,
                                                       route: route, message: msg, transport: transport) else {
            return false
        }
        request.orq = created.orq
        return true
    }
}
