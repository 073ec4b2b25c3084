import CSofiaSIP
import CSofiaShim
import Glibc

/// The Sofia transaction agent (`nta_agent_t`). Every request that matches
/// no transaction (not a retransmission, not a CANCEL or ACK of one) reaches
/// the agent's message callback without a transaction and becomes an
/// `IncomingRequest` handed to `onRequest`; a request the handler has not
/// answered by the time it returns gets its transaction then. Answering a
/// stranger statelessly therefore costs nothing after the answer.
/// Created, used and destroyed on the SIP loop thread only.
public final class SIPAgent {
    public let loop: SIPLoop
    public let connections: ConnectionTable
    let maxMessageSize: Int
    private(set) var agent: OpaquePointer?
    /// How busy the loop is; sampled with every request.
    public private(set) var load = LoopLoad()
    /// The message class the agent parses with; outlives the agent.
    private let messageClass: StrictMessageClass
    private var handlerBox: Unmanaged<Handler>?
    /// INVITE branches stopped before any response, until Timer C.
    let retiredBranches: RetiredBranches<RetiredBranch>
    /// Told, on the loop, when a stopped branch's CANCEL or ACK could not be
    /// sent and when stopped branches are forgotten before Timer C: SIPCore
    /// keeps no metrics, its owner counts and logs these.
    public var onRetiredBranchFailure: ((RetiredBranchFailure) -> Void)?

    final class Handler {
        let onRequest: (IncomingRequest) -> Void
        unowned(unsafe) var agent: SIPAgent?
        init(onRequest: @escaping (IncomingRequest) -> Void) { self.onRequest = onRequest }
    }

    /// Binds every listener and hands each new request to `handler`, an actor
    /// running on `loop`.
    public convenience init(loop: SIPLoop, listeners: [SIPListener], options: SIPAgentOptions,
                            handler: some SIPRequestHandler) throws {
        try self.init(loop: loop, listeners: listeners, options: options) { [weak handler] request in
            handler?.deliver(request)
        }
    }

    /// Binds every listener. Throws naming the first address that fails.
    public init(loop: SIPLoop, listeners: [SIPListener], options: SIPAgentOptions,
                onRequest: @escaping (IncomingRequest) -> Void) throws {
        loop.checkIsolated()
        precondition(!listeners.isEmpty, "at least one listener")
        if listeners.contains(where: { $0.transport != .udp }) && !StreamMessageLimit.isInstalled {
            // Without it one pipelined TCP message can crash the process.
            throw SIPCoreError.agentCreateFailed(
                "the stream size limit (sipwake's msg_next) is not in effect; refusing TCP and TLS listeners")
        }
        self.loop = loop
        self.connections = ConnectionTable(loop: loop)
        self.maxMessageSize = options.maxMessageSize
        self.retiredBranches = RetiredBranches(capacity: options.retiredBranchCapacity)
        guard let messageClass = StrictMessageClass() else {
            throw SIPCoreError.agentCreateFailed("cannot copy Sofia's SIP message class")
        }
        self.messageClass = messageClass

        let handler = Handler(onRequest: onRequest)
        let box = Unmanaged.passRetained(handler)
        self.handlerBox = box

        let first = listeners[0]
        errno = 0
        let agentPointer: OpaquePointer? = SIPAgent.transportTags(first, options: options).withTags { tags in
            first.sofiaURL.withCString { url in
                swk_nta_agent_create(loop.suRoot, swk_url_string(url), SIPAgent.messageCallback,
                                     OpaquePointer(box.toOpaque()), tags)
            }
        }
        guard let agentPointer else {
            box.release()
            handlerBox = nil
            throw SIPCoreError.listenFailed(url: first.sofiaURL, reason: SIPAgent.failureReason(first))
        }
        self.agent = agentPointer
        handler.agent = self

        for listener in listeners.dropFirst() {
            errno = 0
            let rc = SIPAgent.transportTags(listener, options: options).withTags { tags in
                listener.sofiaURL.withCString { swk_nta_agent_add_tport(agentPointer, swk_url_string($0), tags) }
            }
            if rc < 0 {
                let reason = SIPAgent.failureReason(listener)
                close()
                throw SIPCoreError.listenFailed(url: listener.sofiaURL, reason: reason)
            }
        }

        let params = SofiaTagList()
            // Sofia aborts (assert in tport_recv_dgram) when a UDP datagram is
            // larger than its limit, so its limit never goes below the largest
            // datagram; the configured, smaller limit is enforced in Swift.
            .integer(swk_tag_ntatag_maxsize(), max(options.maxMessageSize, SIPAgent.sofiaMinimumMaxSize))
            .integer(swk_tag_ntatag_udp_mtu(), 65535)
            .integer(swk_tag_ntatag_server_rport(), 1)
            .bool(swk_tag_ntatag_tcp_rport(), true)
            .bool(swk_tag_ntatag_tls_rport(), true)
            .bool(swk_tag_ntatag_ua(), false)
            .pointer(swk_tag_ntatag_mclass(), OpaquePointer(messageClass.mclass))
        _ = params.withTags { swk_nta_agent_set_params(agentPointer, $0) }

    }

    deinit {
        close()
    }

    /// Stops listening and frees the agent. Idempotent.
    public func close() {
        // Transactions whose release waits for the next loop turn go first.
        loop.runDeferred()
        connections.releaseAll()
        retiredBranches.removeAll()
        if let agent {
            nta_agent_destroy(agent)
            self.agent = nil
        }
        handlerBox?.release()
        handlerBox = nil
    }

    /// Hands a new request to the handler: 413 (stateless) when it is over
    /// the configured size; a transaction afterwards when the handler left it
    /// unanswered.
    private func deliver(_ msg: OpaquePointer, handler: Handler) {
        load.sample()
        guard let agentPointer = agent,
              let request = IncomingRequest(msg: msg, agent: agentPointer, loop: loop, connections: connections)
        else { return }
        if request.size > maxMessageSize {
            request.replyStateless(413, "Request Entity Too Large")
            return
        }
        handler.onRequest(request)
        if request.finalStatus == nil && !request.isDropped && !request.waitsWithoutTransaction
            && request.message.methodKind != .ack {
            request.beginTransaction()
        }
    }

    /// Sends a request (see `OutgoingRequest.send`). Returns false when it
    /// could not be sent.
    @discardableResult
    public func sendRequest(tags: SofiaTagList, route: String, connection: SIPConnection?,
                            onFinal: @escaping (Int) -> Void) -> Bool {
        guard let agent else { return false }
        return OutgoingRequest.send(agent: agent, loop: loop, tags: tags, route: route,
                                    transport: connection?.tport, onFinal: onFinal)
    }

    /// Forwards a request through a new client transaction (a proxy branch).
    /// Returns nil when Sofia refused it; `onResponse` is never called then.
    public func fork(_ request: ForwardedRequest, route: String, connection: SIPConnection?,
                     onResponse: @escaping (Int, SIPResponse?) -> Void) -> ProxyBranch? {
        guard let agent else { return nil }
        return ProxyBranch.send(agent: agent, loop: loop, request: request, route: route,
                                transport: connection?.tport, onResponse: onResponse)
    }

    /// Stops `branch`, an INVITE nothing has answered yet, at once (see
    /// `ProxyBranch.retire`): nothing more is sent for it, a provisional
    /// response arriving later gets a CANCEL with `reason`, a non-2xx final
    /// its ACK, and a 2xx goes to `onResponse` (which returns true when it
    /// relayed it) or else upstream. Returns false, changing nothing, when
    /// something already came back on the branch: `cancel` it instead.
    public func retire(_ branch: ProxyBranch, reason: String?,
                       onResponse: @escaping (Int, SIPResponse?) -> Bool) -> Bool {
        guard let agent else { return false }
        let now = ContinuousClock.now
        guard let retired = branch.retire(agent: agent, reason: reason, expiresAt: now + RetiredBranches<RetiredBranch>.lifetime,
                                          onResponse: onResponse) else { return false }
        let forgotten = retiredBranches.insert(retired, now: now)
        if forgotten > 0 { onRetiredBranchFailure?(.forgottenEarly(count: forgotten)) }
        return true
    }

    /// The server transactions Sofia holds now (`nta_agent_get_stats`):
    /// those of requests being answered, and those kept after their final
    /// response, for retransmissions and the ACK, or until their owner lets
    /// go (`IncomingRequest.releaseTransaction`). 0 once closed.
    public var serverTransactionCount: Int {
        guard let agent else { return 0 }
        var used = 0
        let found = withUnsafeMutablePointer(to: &used) { pointer in
            SofiaTagList().pointer(swk_tag_ntatag_s_irq_hash_used_ref(), OpaquePointer(pointer))
                .withTags { swk_nta_agent_get_stats(agent, $0) }
        }
        return found > 0 ? used : 0
    }

    /// Branches retired and still answered for; and how many were forgotten
    /// before Timer C because too many were kept.
    public var retiredBranchCount: Int { retiredBranches.count }
    public var retiredBranchesForgottenEarly: Int { retiredBranches.forgottenEarly }

    /// A response matching no transaction: one to a retired INVITE is handled
    /// by its `RetiredBranch`. Returns false when it is not one.
    func absorbRetired(_ msg: OpaquePointer, _ sip: UnsafeMutablePointer<sip_t>) -> Bool {
        guard let agent, !retiredBranches.isEmpty, let status = sip.pointee.sip_status?.pointee.st_status,
              sip.pointee.sip_cseq?.pointee.cs_method == sip_method_invite,
              let branch = sip.pointee.sip_via.flatMap({ SofiaText.string($0.pointee.v_branch) }),
              let retired = retiredBranches.entry(branch: branch, now: .now) else { return false }
        if let failure = retired.absorb(msg, sip, status: Int(status), agent: agent) {
            onRetiredBranchFailure?(failure)
        }
        return true
    }

    /// Forwards a request statelessly (RFC 3261 §16.11): the ACK of a 2xx,
    /// which is a transaction of its own. Sofia adds the Via.
    @discardableResult
    public func forwardStateless(_ request: ForwardedRequest, route: String, connection: SIPConnection?) -> Bool {
        guard let agent, let msg = request.take() else { return false }
        let tags = SofiaTagList()
        if let connection { tags.pointer(swk_tag_ntatag_tport(), connection.tport) }
        return tags.withTags { list in
            route.withCString { swk_nta_msg_tsend(agent, msg, swk_url_string($0), list) }
        } >= 0
    }

    /// Messages outside any transaction. A request goes to the handler
    /// (`deliver`). A 2xx to an INVITE whose branch is already gone (a
    /// retransmission, or a late answer from a fork) is forwarded statelessly
    /// upstream, by the next Via (RFC 3261 §16.7 step 5 and §16.11); any
    /// other response is dropped.
    private static let messageCallback: @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?, UnsafeMutablePointer<sip_t>?) -> Int32 = { magic, agent, msg, sip in
        guard let msg else { return 0 }
        if let magic, let sip, sip.pointee.sip_request != nil {
            let handler = Unmanaged<Handler>.fromOpaque(UnsafeRawPointer(magic)).takeUnretainedValue()
            guard let owner = handler.agent else {
                msg_destroy(msg)
                return 0
            }
            owner.deliver(msg, handler: handler)
            return 0
        }
        if let magic, let sip {
            let handler = Unmanaged<Handler>.fromOpaque(UnsafeRawPointer(magic)).takeUnretainedValue()
            if let owner = handler.agent, owner.absorbRetired(msg, sip) { return 0 }
        }
        if let agent, let sip, let status = sip.pointee.sip_status?.pointee.st_status, (200..<300).contains(status),
           sip.pointee.sip_cseq?.pointee.cs_method == sip_method_invite,
           let via = sip.pointee.sip_via, via.pointee.v_next != nil {
            _ = SofiaTagList().withTags { swk_nta_msg_tsend(agent, msg, nil, $0) }
            return 0
        }
        msg_destroy(msg)
        return 0
    }

    /// Larger than any UDP datagram.
    static let sofiaMinimumMaxSize = 65536

    private static func transportTags(_ listener: SIPListener, options: SIPAgentOptions) -> SofiaTagList {
        let tags = SofiaTagList()
            .bool(swk_tag_tptag_pong2ping(), true)
        tags.integer(swk_tag_tptag_idle(), options.idleTimeoutMilliseconds)
        if let dir = listener.certificateDirectory {
            tags.string(swk_tag_tptag_certificate(), dir)
        }
        return tags
    }

    private static func failureReason(_ listener: SIPListener) -> String {
        ListenProbe.bindError(listener) ?? "Sofia-SIP could not open the transport"
    }
}
