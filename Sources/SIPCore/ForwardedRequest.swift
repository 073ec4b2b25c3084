import CSofiaSIP
import CSofiaShim

/// A copy of a received request, edited the way a proxy edits it before
/// forwarding (RFC 3261 §16.6): a new Request-URI, Max-Forwards decremented,
/// this proxy's Route entries popped, Record-Route and extension headers
/// added. Sofia adds the Via when it is sent.
///
/// Owns its message until it is handed to Sofia (`take()`). Loop thread only.
public final class ForwardedRequest {
    private var msg: OpaquePointer?
    private let sip: UnsafeMutablePointer<sip_t>

    /// Copies `message`. Returns nil when Sofia cannot copy it.
    public init?(copying message: SIPMessage) {
        guard let copy = msg_dup(message.msg) else { return nil }
        guard let sip = swk_sip_object(copy) else {
            msg_destroy(copy)
            return nil
        }
        self.msg = copy
        self.sip = sip
    }

    deinit {
        if let msg { msg_destroy(msg) }
    }

    /// A read-only view of the message as edited so far.
    public var message: SIPMessage? { msg.flatMap { SIPMessage(msg: $0) } }

    private var home: UnsafeMutablePointer<su_home_t>? {
        msg.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: su_home_t.self) }
    }

    private func header(_ pointer: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<msg_header_t>? {
        pointer?.assumingMemoryBound(to: msg_header_t.self)
    }

    /// Replaces the Request-URI, keeping the method.
    @discardableResult
    public func setRequestURI(_ uri: String) -> Bool {
        guard let msg, let request = sip.pointee.sip_request,
              let method = SofiaText.string(request.pointee.rq_method_name) else { return false }
        msg_header_remove(msg, sip_pub, header(UnsafeMutableRawPointer(request)))
        return add(SofiaTagList().string(swk_tag_siptag_request_str(), "\(method) \(uri) SIP/2.0"))
    }

    /// Decrements Max-Forwards (adding `Max-Forwards: 70` when absent, as
    /// RFC 3261 §16.6 step 3 says). Returns false when it was already 0: the
    /// caller answers 483.
    public func decrementMaxForwards() -> Bool {
        guard let msg else { return false }
        var next = 70
        if let mf = sip.pointee.sip_max_forwards {
            let count = Int(mf.pointee.mf_count)
            guard count > 0 else { return false }
            next = count - 1
            msg_header_remove(msg, sip_pub, header(UnsafeMutableRawPointer(mf)))
        }
        return add(SofiaTagList().string(swk_tag_siptag_max_forwards_str(), String(next)))
    }

    /// The Route header values, top first.
    public var routes: [String] { message?.routes ?? [] }

    /// Removes the topmost Route entry.
    public func popRoute() {
        guard let msg, let route = sip.pointee.sip_route else { return }
        msg_header_remove(msg, sip_pub, header(UnsafeMutableRawPointer(route)))
    }

    /// Removes every Route entry.
    public func removeRoutes() {
        while sip.pointee.sip_route != nil { popRoute() }
    }

    /// Puts Route entries on top, in the given order (e.g. a binding's Path).
    @discardableResult
    public func prependRoutes(_ values: [String]) -> Bool {
        prepend(values, headerClass: swk_sip_route_class())
    }

    /// Adds Record-Route entries on top of any already there: the first value
    /// ends up topmost.
    @discardableResult
    public func prependRecordRoutes(_ values: [String]) -> Bool {
        prepend(values, headerClass: swk_sip_record_route_class())
    }

    private func prepend(_ values: [String], headerClass: UnsafePointer<msg_hclass_t>?) -> Bool {
        guard let msg, let home, let headerClass else { return false }
        for value in values.reversed() {
            guard let h = msg_header_make(home, headerClass, value) else { return false }
            guard let list = msg_hclass_offset(msg_mclass(msg), sip_pub, headerClass) else { return false }
            guard msg_header_prepend(msg, sip_pub, list, h) >= 0 else { return false }
        }
        return true
    }

    /// Adds a header from its name and value (e.g. `X-Push-ID`).
    @discardableResult
    public func addHeader(_ name: String, _ value: String) -> Bool {
        add(SofiaTagList().header(name, value))
    }

    @discardableResult
    func add(_ tags: SofiaTagList) -> Bool {
        guard let msg else { return false }
        return tags.withTags { swk_sip_add_tl(msg, sip, $0) } >= 0
    }

    private var sip_pub: UnsafeMutablePointer<msg_pub_t> {
        UnsafeMutableRawPointer(sip).assumingMemoryBound(to: msg_pub_t.self)
    }

    /// Hands the message over; the caller (Sofia) owns it afterwards.
    func take() -> OpaquePointer? {
        defer { msg = nil }
        return msg
    }
}
