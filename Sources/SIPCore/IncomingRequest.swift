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
    /// Size of the request on the wire, in bytes.
    public var size: Int { Int(msg_size(requestMsg)) }
    private var released = false

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

extension Optional where Wrapped == String {
    func withOptionalCString<R>(_ body: (UnsafePointer<CChar>?) -> R) -> R {
        switch self {
        case .some(let s): return s.withCString { body($0) }
        case .none: return body(nil)
        }
    }
}
