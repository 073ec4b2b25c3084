import CSofiaSIP
import CSofiaShim

/// The hop-by-hop requests of an INVITE this proxy sent, built from the
/// INVITE as it went out: its CANCEL (RFC 3261 §9.1) and the ACK of a non-2xx
/// final response (§17.1.1.3). Both carry the INVITE's Request-URI, top Via
/// (so its branch), From, Call-ID, CSeq number, Route set and Max-Forwards;
/// the CANCEL keeps the INVITE's To, the ACK takes the response's To (with the
/// device's tag). Sofia copies the headers (`sip_add_dup`); nothing is parsed
/// here. Used for INVITEs whose transaction sipwake already stopped
/// (`RetiredBranch`), which Sofia can no longer cancel or ACK itself.
enum HopByHopRequest {
    /// A new message for `method` ("CANCEL" or "ACK") from `invite`, or nil
    /// when a header cannot be copied. `to`: the response's To, for the ACK.
    /// `reason`: the CANCEL's Reason value (RFC 3326).
    static func make(_ method: String, from invite: SIPMessage, to: UnsafeMutablePointer<sip_to_t>?,
                     reason: String?, agent: OpaquePointer) -> OpaquePointer? {
        let old = invite.sip.pointee
        guard let uri = invite.requestURI, let cseq = old.sip_cseq?.pointee.cs_seq, let topVia = old.sip_via,
              let msg = nta_msg_create(agent, 0), let sip = swk_sip_object(msg) else { return nil }
        let tags = SofiaTagList().requestLine(method, uri.description).cseq(cseq, method)
        if let reason { tags.string(swk_tag_siptag_reason_str(), reason) }
        var via = topVia.pointee
        via.v_next = nil
        let copied = tags.withTags { swk_sip_add_tl(msg, sip, $0) } >= 0
            && withUnsafePointer(to: &via) { add(msg, sip, UnsafeRawPointer($0)) }
            && add(msg, sip, old.sip_from.map { UnsafeRawPointer($0) })
            && add(msg, sip, (to ?? old.sip_to).map { UnsafeRawPointer($0) })
            && add(msg, sip, old.sip_call_id.map { UnsafeRawPointer($0) })
            && (old.sip_route == nil || add(msg, sip, old.sip_route.map { UnsafeRawPointer($0) }))
            && (old.sip_max_forwards == nil || add(msg, sip, old.sip_max_forwards.map { UnsafeRawPointer($0) }))
        guard copied else {
            msg_destroy(msg)
            return nil
        }
        return msg
    }

    /// Adds a copy of `header` (and of the headers chained after it).
    private static func add(_ msg: OpaquePointer, _ sip: UnsafeMutablePointer<sip_t>, _ header: UnsafeRawPointer?) -> Bool {
        guard let header else { return false }
        return sip_add_dup(msg, sip, header.assumingMemoryBound(to: sip_header_t.self)) >= 0
    }

    /// The branch of the top Via of `message` (without `branch=`), lowercased.
    static func branch(of message: SIPMessage) -> String? {
        guard let via = message.sip.pointee.sip_via, let branch = SofiaText.string(via.pointee.v_branch) else { return nil }
        return branch.lowercased()
    }

    /// Sends `msg` (built by `make`) to `route` over `transport` with the
    /// INVITE's branch in its Via as it stands: a CANCEL as a client
    /// transaction of its own (Sofia retransmits it and takes its 200), an
    /// ACK statelessly. Sofia owns `msg` afterwards.
    @discardableResult
    static func send(_ msg: OpaquePointer, agent: OpaquePointer, route: String, transport: OpaquePointer?,
                     branch: String, stateless: Bool) -> Bool {
        let tags = SofiaTagList()
            .string(swk_tag_ntatag_branch_key(), branch)
            .bool(swk_tag_ntatag_user_via(), true)
        if stateless { tags.bool(swk_tag_ntatag_stateless(), true) }
        if let transport { tags.pointer(swk_tag_ntatag_tport(), transport) }
        let orq = tags.withTags { list in
            route.withCString { swk_nta_outgoing_mcreate(agent, nil, nil, swk_url_string($0), msg, list) }
        }
        guard orq != nil else {
            msg_destroy(msg)
            return false
        }
        return true
    }
}
