import CSofiaSIP
import CSofiaShim

/// A server transaction (`nta_incoming_t`) and the request it received.
///
/// Owns the transaction: once a final response has been sent, the transaction
/// is destroyed on the next loop turn (never inside Sofia's own callback).
/// Dropping a request that was never answered answers 500, so no client is
/// left retransmitting into silence. Loop thread only.
public final class IncomingRequest {
    public let message: SIPMessage
    public let source: RequestSource
    private let irq: OpaquePointer
    private let requestMsg: OpaquePointer
    private let transport: OpaquePointer?
    private let loop: SIPLoop
    public private(set) var finalStatus: Int?
    /// When sipwake received the request (for latency figures).
    public let receivedAt = ContinuousClock.now
    /// Size of the request on the wire, in bytes.
    public var size: Int { Int(msg_size(requestMsg)) }
    private var released = false
    private var cancelHandler: Unmanaged<CancelHandler>?

    /// Holds the closure Sofia calls back when the request is cancelled.
    final class CancelHandler {
        let onCancel: (String?) -> Void
        init(_ onCancel: @escaping (String?) -> Void) { self.onCancel = onCancel }
    }

    init?(irq: OpaquePointer, agent: OpaquePointer, loop: SIPLoop, connections: ConnectionTable) {
        guard let msg = nta_incoming_getrequest(irq), let message = SIPMessage(msg: msg) else {
            return nil
        }
        self.irq = irq
        self.requestMsg = msg
        self.message = message
        self.loop = loop
        let tport = nta_incoming_transport(agent, irq, msg)
        self.transport = tport
        var transportName = "udp"
        var connectionID: UInt64?
        if let tport {
            if let name = tport_name(tport), let proto = name.pointee.tpn_proto {
                transportName = String(cString: proto).lowercased()
            }
            if tport_is_stream(tport) != 0 {
                connectionID = connections.id(for: tport)
            }
        }
        var host = ""
        var port = 0
        if let info = msg_addrinfo(msg), let addr = info.pointee.ai_addr {
            let sa = UnsafeRawPointer(addr).assumingMemoryBound(to: sockaddr.self)
            if let (h, p) = RequestSource.address(sa, length: socklen_t(info.pointee.ai_addrlen)) {
                host = h
                port = p
            }
        }
        self.source = RequestSource(transport: transportName, host: host, port: port,
                                    connectionID: connectionID)
    }

    deinit {
        if let cancelHandler {
            nta_incoming_bind(irq, nil, nil)
            cancelHandler.release()
        }
        if finalStatus == nil && message.methodKind != sip_method_ack {
            _ = swk_nta_incoming_treply(irq, 500, "Server Internal Error", [tagi_t(t_tag: swk_tag_end(), t_value: 0)])
        }
        let irq = self.irq
        let msg = self.requestMsg
        let transport = self.transport
        loop.deferRelease {
            nta_incoming_destroy(irq)
            msg_destroy(msg)
            if let transport { tport_unref(transport) }
        }
    }

    /// Sends a response. A final response (>= 200) ends the transaction; later
    /// calls are ignored.
    public func reply(_ status: Int, _ phrase: String? = nil, tags: SofiaTagList = SofiaTagList()) {
        guard finalStatus == nil else { return }
        tags.withTags { list in
            _ = phrase.withOptionalCString { swk_nta_incoming_treply(irq, Int32(status), $0, list) }
        }
        if status >= 200 { finalStatus = status }
    }
}

extension IncomingRequest {
    /// Calls `handler` when a CANCEL for this request arrives (RFC 3261 §9.2),
    /// with the CANCEL's Reason header (RFC 3326) when it has one, after Sofia
    /// has answered the CANCEL 200. Sofia's ACK of a non-2xx final is not
    /// reported.
    public func onCancel(_ handler: @escaping (String?) -> Void) {
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
        guard let msg = response.copyForRelay() else { return false }
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
