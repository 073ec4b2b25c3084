import CSofiaSIP
import CSofiaShim
import Model

/// A request as Sofia parsed it, and, once it needs one, its server
/// transaction (`nta_incoming_t`).
///
/// Requests arrive without a transaction, so that answering a stranger costs
/// no state: `replyStateless` answers at once and keeps nothing (Sofia then
/// neither retransmits the answer nor holds the request for 32 s), which is
/// how challenges and refusals go to unauthenticated sources. `reply`,
/// `relay` and `onCancel` first create the transaction (`beginTransaction`),
/// which absorbs retransmissions and matches CANCEL and ACK; the agent also
/// creates it for every request its handler has not answered before the
/// callback returns, so a request that waits (for a lookup, a branch) is
/// never processed twice. A request its handler keeps stateless
/// (`keepStateless`: a REGISTER) never gets one: every answer to it goes out
/// statelessly, and the handler recognises its retransmissions itself.
///
/// Owns its message and transaction: once a final response has been sent,
/// they are released on the next loop turn (never inside Sofia's own
/// callback). Dropping a request that was neither answered nor `drop`ped
/// answers 500, so no client is left retransmitting into silence. Loop
/// thread only.
public final class IncomingRequest {
    public let message: SIPMessage
    public let source: BindingSource
    private var irq: OpaquePointer?
    private let agent: OpaquePointer
    private let requestMsg: OpaquePointer
    private let transport: OpaquePointer?
    private let loop: SIPLoop
    public private(set) var finalStatus: Int?
    /// True once the request was left unanswered on purpose (`drop`).
    public private(set) var isDropped = false
    /// True when the handler keeps the request waiting without a
    /// transaction (`waitWithoutTransaction`).
    public private(set) var waitsWithoutTransaction = false
    /// True when the request never gets a transaction (`keepStateless`).
    public private(set) var isKeptStateless = false
    /// When sipwake received the request (for latency figures).
    public let receivedAt = ContinuousClock.now
    /// Size of the request on the wire, in bytes.
    public var size: Int { Int(msg_size(requestMsg)) }
    /// True once the request has a server transaction.
    public var isStateful: Bool { irq != nil }
    /// True once `releaseTransaction` let go of the server transaction.
    public private(set) var transactionReleased = false
    private var cancelHandler: Unmanaged<CancelHandler>?

    /// Holds the closure Sofia calls back when the request is cancelled.
    final class CancelHandler {
        let onCancel: (String?) -> Void
        init(_ onCancel: @escaping (String?) -> Void) { self.onCancel = onCancel }
    }

    /// Takes over `msg`, a request Sofia delivered without a transaction.
    /// Must run inside Sofia's delivery callback (the transport is read
    /// from it). Returns nil, having freed `msg`, when it is not a request.
    init?(msg: OpaquePointer, agent: OpaquePointer, loop: SIPLoop, connections: ConnectionTable) {
        guard let message = SIPMessage(msg: msg), message.sip.pointee.sip_request != nil else {
            msg_destroy(msg)
            return nil
        }
        self.agent = agent
        self.requestMsg = msg
        self.message = message
        self.loop = loop
        let tport = nta_incoming_transport(agent, nil, msg)
        self.transport = tport
        var transport = SIPTransport.udp
        var connectionID: UInt64?
        if let tport {
            if let name = tport_name(tport), let proto = name.pointee.tpn_proto {
                transport = SIPTransport(rawValue: String(cString: proto).lowercased()) ?? .udp
            }
            if tport_is_stream(tport) != 0 {
                connectionID = connections.id(for: tport)
            }
        }
        var host = ""
        var port = 0
        if let info = msg_addrinfo(msg), let addr = info.pointee.ai_addr {
            let sa = UnsafeRawPointer(addr).assumingMemoryBound(to: sockaddr.self)
            if let (h, p) = SocketAddress.hostAndPort(sa, length: socklen_t(info.pointee.ai_addrlen)) {
                host = h
                port = p
            }
        }
        self.source = BindingSource(transport: transport, host: host, port: port, connectionID: connectionID)
    }

    deinit {
        if let irq, let cancelHandler {
            nta_incoming_bind(irq, nil, nil)
            cancelHandler.release()
        }
        if finalStatus == nil && !isDropped && message.methodKind != .ack {
            replyStateless(500, "Server Internal Error")
        }
        let irq = self.irq
        let msg = self.requestMsg
        let transport = self.transport
        loop.deferRelease {
            if let irq { nta_incoming_destroy(irq) }
            msg_destroy(msg)
            if let transport { tport_unref(transport) }
        }
    }

    /// Creates the server transaction, if the request has none yet. From
    /// then on Sofia absorbs retransmissions of the request and matches its
    /// CANCEL and ACK. Returns false when Sofia could not create it.
    @discardableResult
    public func beginTransaction() -> Bool {
        if irq != nil { return true }
        guard finalStatus == nil, !isDropped, !isKeptStateless, message.methodKind != .ack else { return false }
        let tags = SofiaTagList()
        if let transport { tags.pointer(swk_tag_ntatag_tport(), transport) }
        // nta takes a reference of its own to the message.
        irq = tags.withTags { swk_nta_incoming_create(agent, nil, msg_ref_create(requestMsg), message.sip, $0) }
        return irq != nil
    }

    /// Sends a response through the request's transaction, creating it if
    /// needed (statelessly when the request is kept stateless). A final
    /// response (>= 200) ends the transaction; later calls are ignored.
    public func reply(_ status: Int, _ phrase: String? = nil, tags: SofiaTagList = SofiaTagList()) {
        guard finalStatus == nil, !isDropped else { return }
        guard beginTransaction(), let irq else {
            replyStateless(status, phrase, tags: tags)
            return
        }
        tags.withTags { list in
            _ = phrase.withOptionalCString { swk_nta_incoming_treply(irq, Int32(status), $0, list) }
        }
        if status >= 200 { finalStatus = status }
    }

    /// Sends a final response without keeping any state (RFC 3261 §16.11,
    /// as a stateless proxy or Kamailio's `sl` does): nothing is
    /// retransmitted, and a retransmitted request is answered anew. Falls
    /// back to `reply` when the request already has a transaction.
    public func replyStateless(_ status: Int, _ phrase: String? = nil, tags: SofiaTagList = SofiaTagList()) {
        guard finalStatus == nil, !isDropped else { return }
        if irq != nil { return reply(status, phrase, tags: tags) }
        guard message.methodKind != .ack else { return }
        if let transport { tags.pointer(swk_tag_ntatag_tport(), transport) }
        tags.withTags { list in
            // nta takes (and frees) a reference of its own to the request.
            _ = phrase.withOptionalCString {
                swk_nta_msg_treply(agent, msg_ref_create(requestMsg), Int32(status), $0, list)
            }
        }
        if status >= 200 { finalStatus = status }
    }

    /// Lets go of the server transaction once the final response is out
    /// and the request is only kept for its story (an INVITE whose call
    /// waits for late registrations and cancelled branches). Sofia still
    /// does what the transaction owes: a non-2xx final is retransmitted
    /// until its ACK, which it absorbs. Later 2xx (RFC 3261 §16.7 step 5)
    /// are relayed statelessly by `relay`; a late CANCEL finds no
    /// transaction. Keeping every answered INVITE's transaction while its
    /// call lingers costs Sofia a scan of all of them on each timer tick.
    public func releaseTransaction() {
        guard let irq, finalStatus != nil else { return }
        self.irq = nil
        transactionReleased = true
        let cancelHandler = self.cancelHandler
        self.cancelHandler = nil
        // Maybe inside the transaction's own callback: freed on the next turn.
        loop.deferRelease {
            if cancelHandler != nil { nta_incoming_bind(irq, nil, nil) }
            cancelHandler?.release()
            nta_incoming_destroy(irq)
        }
    }

    /// Keeps the request waiting, for an answer later, without a
    /// transaction: a stranger's request waiting for a user lookup, whose
    /// answer will most likely be a stateless challenge. Its retransmissions
    /// then arrive as new requests, which the handler must recognise and drop.
    public func waitWithoutTransaction() {
        guard irq == nil else { return }
        waitsWithoutTransaction = true
    }

    /// Never gives the request a transaction, however long it waits: every
    /// answer goes out statelessly (`reply` too), so nothing of it is kept
    /// after the answer (Sofia would keep a UDP transaction 32 s, Timer J).
    /// Its retransmissions then arrive as new requests, which the handler
    /// must recognise and answer or drop itself. Only before a transaction
    /// exists.
    public func keepStateless() {
        guard irq == nil else { return }
        isKeptStateless = true
    }

    /// Leaves the request unanswered on purpose (an overloaded server
    /// shedding strangers' requests): nothing is sent, nothing is kept.
    public func drop() {
        guard finalStatus == nil, irq == nil else { return }
        isDropped = true
    }
}

extension IncomingRequest {
    /// Calls `handler` when a CANCEL for this request arrives (RFC 3261 §9.2),
    /// with the CANCEL's Reason header (RFC 3326) when it has one, after Sofia
    /// has answered the CANCEL 200. Sofia's ACK of a non-2xx final is not
    /// reported.
    public func onCancel(_ handler: @escaping (String?) -> Void) {
        guard beginTransaction(), let irq else { return }
        cancelHandler?.release()
        let box = Unmanaged.passRetained(CancelHandler(handler))
        cancelHandler = box
        nta_incoming_bind(irq, IncomingRequest.cancelCallback, OpaquePointer(box.toOpaque()))
    }

    private static let cancelCallback: @convention(c) (OpaquePointer?, OpaquePointer?, UnsafePointer<sip_t>?) -> Int32 = { magic, _, sip in
        guard let magic else { return 0 }
        guard let sip, sip.pointee.sip_request?.pointee.rq_method == sip_method_cancel else { return 0 }
        let handler = Unmanaged<CancelHandler>.fromOpaque(UnsafeRawPointer(magic)).takeUnretainedValue()
        var reason: String?
        if let header = sip.pointee.sip_reason {
            reason = SofiaText.encode { buffer, size in
                msg_header_field_e(buffer, size, UnsafeMutableRawPointer(header).assumingMemoryBound(to: msg_header_t.self), 0)
            }
        }
        handler.onCancel(reason)
        return 0
    }

    /// A copy of the request to edit and forward.
    public func forwardCopy() -> ForwardedRequest? {
        ForwardedRequest(copying: message)
    }

    /// Relays a response received on a branch (RFC 3261 §16.7): this proxy's
    /// Via is removed and the rest goes upstream unchanged. Provisional
    /// responses may be relayed any time; after a 2xx, further 2xx are still
    /// relayed (every 2xx is forwarded), other finals are not.
    @discardableResult
    public func relay(_ response: SIPResponse) -> Bool {
        if let finalStatus, !(finalStatus < 300 && (200..<300).contains(response.status)) { return false }
        if transactionReleased {
            // A further 2xx after the transaction was let go: upstream by the
            // next Via (Sofia removes this proxy's own).
            guard let msg = response.copyForStatelessRelay() else { return false }
            let tags = SofiaTagList()
            if let transport { tags.pointer(swk_tag_ntatag_tport(), transport) }
            return tags.withTags { swk_nta_msg_tsend(agent, msg, nil, $0) } >= 0
        }
        guard beginTransaction(), let irq, let msg = response.copyForRelay() else { return false }
        guard nta_incoming_mreply(irq, msg) >= 0 else { return false }
        if response.status >= 200 && finalStatus == nil { finalStatus = response.status }
        return true
    }
}

extension Optional where Wrapped == String {
    func withOptionalCString<R>(_ body: (UnsafePointer<CChar>?) -> R) -> R {
        switch self {
        case .some(let s): return s.withCString { body($0) }
        case .none: return body(nil)
        }
    }
}
