import CSofiaSIP
import CSofiaShim

/// One forwarded request: a client transaction (`nta_outgoing_t`) created
/// from a `ForwardedRequest`, reporting every response above 100 to
/// `onResponse` with its status (and the message, except when Sofia itself
/// ended the transaction: a timeout or an unreachable next hop). Sofia's INVITE client transaction ACKs non-2xx finals
/// itself; further 2xx (retransmissions, or a fork downstream) keep coming
/// to `onResponse` until the branch is released.
///
/// The transaction lives until `release()` (never inside its own callback:
/// the destroy is deferred to the next loop turn). Loop thread only.
public final class ProxyBranch {
    private let loop: SIPLoop
    private var orq: OpaquePointer?
    private var box: Unmanaged<ProxyBranch>?
    private var onResponse: ((Int, SIPResponse?) -> Void)?
    /// Where the request went (`sip:HOST:PORT;transport=…`).
    private let route: String
    /// True while Sofia's callback for this transaction runs.
    private var inCallback = false
    public private(set) var finalStatus: Int?
    public private(set) var provisionalStatus: Int?
    private var heardTrying = false
    private var cancelRequested = false

    init(loop: SIPLoop, route: String, onResponse: @escaping (Int, SIPResponse?) -> Void) {
        self.loop = loop
        self.route = route
        self.onResponse = onResponse
    }

    static let callback: @convention(c) (OpaquePointer?, OpaquePointer?, UnsafePointer<sip_t>?) -> Int32 = { magic, orq, sip in
        guard let magic, let orq else { return 0 }
        let branch = Unmanaged<ProxyBranch>.fromOpaque(UnsafeRawPointer(magic)).takeUnretainedValue()
        branch.inCallback = true
        defer { branch.inCallback = false }
        if sip == nil {
            // Sofia's own timeout or transport error, without a message.
            let status = max(Int(nta_outgoing_status(orq)), 408)
            branch.received(status: status, response: nil)
            return 0
        }
        guard let msg = nta_outgoing_getresponse(orq) else { return 0 }
        branch.received(status: Int(sip?.pointee.sip_status?.pointee.st_status ?? 0),
                        response: SIPResponse(taking: msg))
        return 0
    }

    private func received(status: Int, response: SIPResponse?) {
        guard status >= 100 else { return }
        if status == 100 {
            // Reported once: the device has the request (a CANCEL may go now).
            guard provisionalStatus == nil, !heardTrying else { return }
            heardTrying = true
        } else if status < 200 {
            if provisionalStatus == nil { provisionalStatus = status }
        } else if finalStatus == nil || (200..<300).contains(status) {
            if finalStatus == nil { finalStatus = status }
        }
        onResponse?(status, response)
    }

    /// Sends `request` to `route` (over `transport` when given). Returns nil
    /// when Sofia refused it.
    static func send(agent: OpaquePointer, loop: SIPLoop, request: ForwardedRequest, route: String,
                     transport: OpaquePointer?, onResponse: @escaping (Int, SIPResponse?) -> Void) -> ProxyBranch? {
        guard let msg = request.take() else { return nil }
        let branch = ProxyBranch(loop: loop, route: route, onResponse: onResponse)
        guard let created = OutgoingTransaction.create(agent: agent, callback: ProxyBranch.callback, owner: branch,
                                                       route: route, message: msg, transport: transport) else {
            return nil
        }
        branch.orq = created.orq
        branch.box = created.box
        return branch
    }

    /// Sends CANCEL for this branch (RFC 3261 §9.1) with a Reason header
    /// (RFC 3326) when given. Sofia sends it once a provisional response has
    /// arrived, and answers the INVITE's late final itself.
    public func cancel(reason: String?) {
        guard let orq, finalStatus == nil else { return }
        cancelRequested = true
        let tags = SofiaTagList()
        if let reason { tags.string(swk_tag_siptag_reason_str(), reason) }
        _ = tags.withTags { swk_nta_outgoing_tcancel(orq, nil, nil, $0) }
    }

    /// Stops an INVITE that nothing has answered yet, at once: no CANCEL
    /// (RFC 3261 §9.1 forbids one before a provisional response), no more
    /// retransmissions; the transaction is destroyed and the returned
    /// `RetiredBranch` answers for it (a CANCEL with `reason` if the device
    /// rings later, the ACK of a late final; a late 2xx goes to `onResponse`).
    /// Returns nil, changing nothing, when a response has already come (then
    /// `cancel` is the way) or the INVITE cannot be matched.
    func retire(agent: OpaquePointer, reason: String?, expiresAt: ContinuousClock.Instant,
                onResponse: @escaping (Int, SIPResponse?) -> Bool) -> RetiredBranch? {
        guard let orq, !cancelRequested, nta_outgoing_status(orq) < 100, finalStatus == nil,
              let request = nta_outgoing_getrequest(orq) else { return nil }
        defer { msg_destroy(request) }
        guard let invite = SIPMessage(msg: request), let branch = HopByHopRequest.branch(of: invite),
              let cancel = HopByHopRequest.make("CANCEL", from: invite, to: nil, reason: reason, agent: agent)
        else { return nil }
        let retired = RetiredBranch(branch: branch, cancel: cancel, route: route,
                                    transport: nta_outgoing_transport(orq), expiresAt: expiresAt,
                                    onResponse: onResponse)
        // Not cancelled, not answered: Sofia terminates and frees it now.
        if inCallback { release() } else { destroyNow() }
        return retired
    }

    private func destroyNow() {
        onResponse = nil
        guard let orq else { return }
        self.orq = nil
        nta_outgoing_destroy(orq)
        box?.release()
        box = nil
    }

    /// Stops reporting responses and frees the transaction on the next loop turn.
    public func release() {
        onResponse = nil
        guard let orq else { return }
        self.orq = nil
        let box = self.box
        self.box = nil
        loop.deferRelease {
            nta_outgoing_destroy(orq)
            box?.release()
        }
    }
}
