import CSofiaSIP
import CSofiaShim

/// An INVITE branch whose client transaction sipwake stopped before anything
/// came back from the device (its device re-registered, or the call ended).
///
/// A CANCEL may only be sent once the device has answered provisionally
/// (RFC 3261 §9.1), and until then Sofia would keep retransmitting the INVITE
/// beside any newer one to the same device. So the transaction is destroyed
/// at once (nothing more is sent), and this record stands in for it: a late
/// provisional response gets the CANCEL then, a late non-2xx final its ACK,
/// and a late 2xx goes to `onResponse` (the call, while it can still use an
/// answer) or else upstream statelessly. Kept by `RetiredBranches` for
/// Timer C (three minutes). Loop thread only.
public final class RetiredBranch: RetiredBranchEntry {
    /// The INVITE's Via branch, lowercased (how its responses are matched).
    let branch: String
    /// The CANCEL, built when the branch was retired, sent on the first
    /// provisional response; its headers also make the ACK.
    private let cancel: OpaquePointer
    private let route: String
    /// Sofia's transport the INVITE went over, referenced.
    private let transport: OpaquePointer?
    let expiresAt: ContinuousClock.Instant
    private(set) var cancelSent = false
    /// Told of every late response: its status, and for a 2xx the response;
    /// returns true when it took the 2xx (relayed it itself).
    let onResponse: (Int, SIPResponse?) -> Bool

    init(branch: String, cancel: OpaquePointer, route: String, transport: OpaquePointer?,
         expiresAt: ContinuousClock.Instant, onResponse: @escaping (Int, SIPResponse?) -> Bool) {
        self.branch = branch
        self.cancel = cancel
        self.route = route
        self.transport = transport
        self.expiresAt = expiresAt
        self.onResponse = onResponse
    }

    deinit {
        msg_destroy(cancel)
        if let transport { tport_unref(transport) }
    }

    /// Handles a response to the retired INVITE (`msg`, owned by this call).
    /// Returns what could not be done for it: the CANCEL or the ACK not sent.
    func absorb(_ msg: OpaquePointer, _ sip: UnsafeMutablePointer<sip_t>, status: Int,
                agent: OpaquePointer) -> RetiredBranchFailure? {
        switch status {
        case ..<200:
            var failure: RetiredBranchFailure?
            if !cancelSent {
                if let copy = msg_dup(cancel),
                   HopByHopRequest.send(copy, agent: agent, route: route, transport: transport, branch: branch,
                                        stateless: false) {
                    cancelSent = true
                } else {
                    failure = .cancelNotSent(branch: branch, status: status)
                }
            }
            _ = onResponse(status, nil)
            msg_destroy(msg)
            return failure
        case 200..<300:
            if let response = SIPResponse(taking: msg_ref_create(msg)), onResponse(status, response) {
                msg_destroy(msg)
            } else {
                // Nobody waits for it: upstream by the next Via (RFC 3261 §16.7 step 5).
                _ = SofiaTagList().withTags { swk_nta_msg_tsend(agent, msg, nil, $0) }
            }
            return nil
        default:
            var acked = false
            if let template = SIPMessage(msg: cancel),
               let ack = HopByHopRequest.make("ACK", from: template, to: sip.pointee.sip_to, reason: nil, agent: agent) {
                acked = HopByHopRequest.send(ack, agent: agent, route: route, transport: transport, branch: branch,
                                             stateless: true)
            }
            _ = onResponse(status, nil)
            msg_destroy(msg)
            return acked ? nil : .ackNotSent(branch: branch, status: status)
        }
    }
}
