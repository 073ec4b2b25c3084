import CSofiaSIP
import CSofiaShim

/// A read-only Swift view of a message Sofia has parsed (`msg_t` + `sip_t`).
///
/// It does not own the message: it is valid while the transaction or the
/// message it came from is alive. Values it returns are Swift copies.
public struct SIPMessage {
    public let msg: OpaquePointer
    public let sip: UnsafeMutablePointer<sip_t>

    public init?(msg: OpaquePointer) {
        guard let sip = swk_sip_object(msg) else { return nil }
        self.msg = msg
        self.sip = sip
    }

    public var method: String? {
        sip.pointee.sip_request.flatMap { SofiaText.string($0.pointee.rq_method_name) }
    }

    public var methodKind: SIPMethod? {
        sip.pointee.sip_request.map { SIPMethod(sofia: $0.pointee.rq_method, name: SofiaText.string($0.pointee.rq_method_name)) }
    }

    public var requestURI: SIPURI? {
        guard let rq = sip.pointee.sip_request else { return nil }
        return SIPMessage.withField(rq, \sip_request_t.rq_url) { SIPURI($0) }
    }

    /// Whether `text` (a digest `uri`, say) names the Request-URI: both
    /// parsed by Sofia and compared as `url_cmp` does (scheme, user, host,
    /// port; parameters ignored). False when `text` does not parse.
    public func requestURIEquals(_ text: String) -> Bool {
        guard let rq = sip.pointee.sip_request, let raw = su_home_new(isize_t(MemoryLayout<su_home_t>.size)) else {
            return false
        }
        let home = raw.assumingMemoryBound(to: su_home_t.self)
        defer { su_home_unref(home) }
        guard let url = text.withCString({ url_make(home, $0) }) else { return false }
        return SIPMessage.withField(rq, \sip_request_t.rq_url) { url_cmp($0, url) } == 0
    }

    public var status: Int? { sip.pointee.sip_status.map { Int($0.pointee.st_status) } }

    public var callID: String? { sip.pointee.sip_call_id.flatMap { SofiaText.string($0.pointee.i_id) } }

    public var cseq: UInt32? { sip.pointee.sip_cseq?.pointee.cs_seq }

    public var cseqMethod: String? {
        sip.pointee.sip_cseq.flatMap { SofiaText.string($0.pointee.cs_method_name) }
    }

    public var fromURI: SIPURI? {
        sip.pointee.sip_from.flatMap { SIPMessage.withField($0, \sip_from_t.a_url) { SIPURI($0) } }
    }

    public var fromTag: String? { sip.pointee.sip_from.flatMap { SofiaText.string($0.pointee.a_tag) } }
    public var fromDisplay: String? { sip.pointee.sip_from.flatMap { SofiaText.string($0.pointee.a_display) } }

    public var toURI: SIPURI? {
        sip.pointee.sip_to.flatMap { SIPMessage.withField($0, \sip_to_t.a_url) { SIPURI($0) } }
    }

    public var toTag: String? { sip.pointee.sip_to.flatMap { SofiaText.string($0.pointee.a_tag) } }

    /// The To header's value as Sofia encodes it (`<sip:alice@example.com>;tag=x`).
    public var toValue: String? {
        guard let to = sip.pointee.sip_to else { return nil }
        let raw = UnsafeMutableRawPointer(to).assumingMemoryBound(to: msg_header_t.self)
        return SofiaText.encode { buffer, size in msg_header_field_e(buffer, size, raw, 0) }
    }

    /// The top Via's `branch` parameter (RFC 3261 §8.1.1.7).
    public var viaBranch: String? { sip.pointee.sip_via.flatMap { SofiaText.string($0.pointee.v_branch) } }

    /// The top Via's protocol and sent-by (`SIP/2.0/UDP 192.0.2.1:5060`): with
    /// the branch and the method, what names a server transaction (RFC 3261 §17.2.3).
    public var viaSentBy: String? {
        guard let via = sip.pointee.sip_via else { return nil }
        let host = SofiaText.string(via.pointee.v_host) ?? ""
        let port = SofiaText.string(via.pointee.v_port).map { ":" + $0 } ?? ""
        return "\(SofiaText.string(via.pointee.v_protocol) ?? "") \(host)\(port)"
    }

    /// The Expires header as delta-seconds.
    public var expires: Int? {
        sip.pointee.sip_expires.map { Int(clamping: $0.pointee.ex_delta) }
    }

    public var maxForwards: Int? {
        sip.pointee.sip_max_forwards.map { Int(clamping: $0.pointee.mf_count) }
    }

    public var userAgent: String? {
        sip.pointee.sip_user_agent.flatMap { SofiaText.string($0.pointee.g_string) }
    }

    public var contacts: [SIPContact] {
        var result: [SIPContact] = []
        var m = sip.pointee.sip_contact
        while let contact = m {
            let uri = SIPMessage.withField(contact, \sip_contact_t.m_url) { SIPURI($0) }
            result.append(SIPContact(
                uri: uri,
                expires: SofiaText.string(contact.pointee.m_expires),
                q: SofiaText.string(contact.pointee.m_q),
                parameters: SIPMessage.parameters(contact.pointee.m_params)))
            m = contact.pointee.m_next
        }
        return result
    }

    /// Path header values (RFC 3327), one per entry, in message order.
    public var path: [String] {
        SIPMessage.routeValues(sip.pointee.sip_path).filter { !$0.isEmpty }
    }

    /// Route header values, top first.
    public var routes: [String] { SIPMessage.routeValues(sip.pointee.sip_route) }

    /// The field values of a chain of Route-shaped headers (Route, Path), in order.
    private static func routeValues(_ first: UnsafeMutablePointer<sip_route_t>?) -> [String] {
        var result: [String] = []
        var r = first
        while let route = r {
            let raw = UnsafeMutableRawPointer(route).assumingMemoryBound(to: msg_header_t.self)
            result.append(SofiaText.encode { buffer, size in msg_header_field_e(buffer, size, raw, 0) })
            r = route.pointee.r_next
        }
        return result
    }

    /// Option tags of every Require header.
    public var require: [String] { SIPMessage.listItems(sip.pointee.sip_require) }
    /// Option tags of every Supported header.
    public var supported: [String] { SIPMessage.listItems(sip.pointee.sip_supported) }

    /// Digest parameters of the Authorization headers, one dictionary per
    /// header with the `Digest` scheme. Names are lower-cased, values unquoted
    /// by Sofia's own parser.
    public var digestAuthorizations: [[String: String]] {
        SIPMessage.digestParameters(sip.pointee.sip_authorization)
    }

    /// Digest parameters of the Proxy-Authorization headers (RFC 3261 §22.3),
    /// as `digestAuthorizations`.
    public var digestProxyAuthorizations: [[String: String]] {
        SIPMessage.digestParameters(sip.pointee.sip_proxy_authorization)
    }

    /// The message body as text, when there is one.
    public var body: String? {
        guard let payload = sip.pointee.sip_payload, let data = payload.pointee.pl_data,
              payload.pointee.pl_len > 0 else { return nil }
        let bytes = UnsafeRawBufferPointer(start: data, count: Int(payload.pointee.pl_len))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The Content-Type, e.g. `application/sdp`.
    public var contentType: String? {
        sip.pointee.sip_content_type.flatMap { SofiaText.string($0.pointee.c_type) }
    }

    /// Digest parameters of the WWW-Authenticate (or Proxy-Authenticate)
    /// challenges, one dictionary per header.
    public var digestChallenges: [[String: String]] {
        SIPMessage.digestParameters(sip.pointee.sip_www_authenticate)
            + SIPMessage.digestParameters(sip.pointee.sip_proxy_authenticate)
    }

    /// The parameters of each `Digest` header in a chain of credentials or
    /// challenges (Sofia's `msg_auth_t`), in order; other schemes are skipped.
    private static func digestParameters(_ first: UnsafeMutablePointer<msg_auth_t>?) -> [[String: String]] {
        var result: [[String: String]] = []
        var a = first
        while let auth = a {
            if let scheme = auth.pointee.au_scheme, String(cString: scheme).lowercased() == "digest" {
                result.append(SIPMessage.parameters(auth.pointee.au_params))
            }
            a = auth.pointee.au_next
        }
        return result
    }

    public var minExpires: Int? {
        sip.pointee.sip_min_expires.map { Int(clamping: $0.pointee.me_delta) }
    }

    /// The whole message as it would go on the wire.
    public var text: String {
        var home = su_home_t()
        su_home_init(&home)
        defer { su_home_deinit(&home) }
        var length = 0
        guard let s = msg_as_string(&home, msg, nil, 0, &length) else { return "" }
        return String(cString: s)
    }

    /// Values of an extension header Sofia does not know (for example X-Push-ID).
    public func unknownHeader(_ name: String) -> [String] {
        var result: [String] = []
        var u = sip.pointee.sip_unknown
        let wanted = name.lowercased()
        while let header = u {
            if let n = header.pointee.un_name, String(cString: n).lowercased() == wanted,
               let v = header.pointee.un_value {
                result.append(String(cString: v))
            }
            u = header.pointee.un_next
        }
        return result
    }

    // MARK: Helpers

    /// Calls `body` with a pointer to an embedded one-element array field of a
    /// Sofia header (`a_url[1]`, `m_url[1]`, `rq_url[1]`).
    static func withField<Header, R>(
        _ header: UnsafeMutablePointer<Header>, _ field: PartialKeyPath<Header>,
        _ body: (UnsafePointer<url_t>) -> R
    ) -> R {
        let offset = MemoryLayout<Header>.offset(of: field)!
        let url = (UnsafeMutableRawPointer(header) + offset).assumingMemoryBound(to: url_t.self)
        return body(url)
    }

    /// Reads a NULL-terminated Sofia parameter array (`name=value` items).
    static func parameters(_ list: UnsafePointer<msg_param_t?>?) -> [String: String] {
        guard var p = list else { return [:] }
        var result: [String: String] = [:]
        while let item = p.pointee {
            let text = String(cString: item)
            if let eq = text.firstIndex(of: "=") {
                let name = text[..<eq].lowercased()
                result[name] = unquote(String(text[text.index(after: eq)...]))
            } else {
                result[text.lowercased()] = ""
            }
            p += 1
        }
        return result
    }

    private static func unquote(_ value: String) -> String {
        guard value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") else { return value }
        var home = su_home_t()
        su_home_init(&home)
        defer { su_home_deinit(&home) }
        guard let unquoted = msg_unquote_dup(&home, value) else { return value }
        return String(cString: unquoted)
    }

    private static func listItems(_ header: UnsafeMutablePointer<msg_list_t>?) -> [String] {
        var result: [String] = []
        var h = header
        while let list = h {
            if var items = list.pointee.k_items {
                while let item = items.pointee {
                    result.append(String(cString: item))
                    items += 1
                }
            }
            h = list.pointee.k_next
        }
        return result
    }
}
