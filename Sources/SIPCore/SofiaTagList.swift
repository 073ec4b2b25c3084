import CSofiaSIP
import CSofiaShim
import Glibc

/// A Sofia tag list (`tagi_t[]`, terminated by `TAG_END()`) built in Swift.
///
/// Sofia's calls take `tag, value, ...` varargs; the C shim forwards a ready
/// list with `TAG_NEXT`. String values are copied and owned by the list, so
/// they live as long as the list does: keep the list alive across the call.
public final class SofiaTagList {
    private var items: [tagi_t] = []
    private var strings: [UnsafeMutablePointer<CChar>] = []

    public init() {}

    deinit {
        for s in strings { free(s) }
    }

    @discardableResult
    public func string(_ tag: tag_type_t, _ value: String) -> SofiaTagList {
        let copy = strdup(value)!
        strings.append(copy)
        items.append(tagi_t(t_tag: tag, t_value: tag_value_t(bitPattern: copy)))
        return self
    }

    @discardableResult
    public func integer(_ tag: tag_type_t, _ value: Int) -> SofiaTagList {
        items.append(tagi_t(t_tag: tag, t_value: tag_value_t(value)))
        return self
    }

    @discardableResult
    public func bool(_ tag: tag_type_t, _ value: Bool) -> SofiaTagList {
        integer(tag, value ? 1 : 0)
    }

    @discardableResult
    public func pointer(_ tag: tag_type_t, _ value: OpaquePointer?) -> SofiaTagList {
        items.append(tagi_t(t_tag: tag, t_value: tag_value_t(bitPattern: UnsafeRawPointer(value))))
        return self
    }

    /// An extra header line, e.g. `X-Push-ID: 1234`, parsed by Sofia. A value
    /// with a line break is dropped rather than let it smuggle in headers.
    @discardableResult
    public func header(_ name: String, _ value: String) -> SofiaTagList {
        guard !value.contains(where: { $0 == "\r" || $0 == "\n" }) else { return self }
        return string(swk_tag_siptag_header_str(), "\(name): \(value)")
    }

    /// Contact header value(s), comma-separated.
    @discardableResult
    public func contact(_ value: String) -> SofiaTagList {
        guard !value.contains(where: { $0 == "\r" || $0 == "\n" }) else { return self }
        return string(swk_tag_siptag_contact_str(), value)
    }

    // MARK: Request headers, for requests this server sends

    @discardableResult
    public func requestLine(_ method: String, _ uri: String) -> SofiaTagList {
        string(swk_tag_siptag_request_str(), "\(method) \(uri) SIP/2.0")
    }

    @discardableResult
    public func from(_ value: String) -> SofiaTagList { string(swk_tag_siptag_from_str(), value) }

    @discardableResult
    public func to(_ value: String) -> SofiaTagList { string(swk_tag_siptag_to_str(), value) }

    @discardableResult
    public func callID(_ value: String) -> SofiaTagList { string(swk_tag_siptag_call_id_str(), value) }

    @discardableResult
    public func cseq(_ number: UInt32, _ method: String) -> SofiaTagList {
        string(swk_tag_siptag_cseq_str(), "\(number) \(method)")
    }

    @discardableResult
    public func maxForwards(_ hops: Int) -> SofiaTagList {
        string(swk_tag_siptag_max_forwards_str(), String(hops))
    }

    /// Calls `body` with the terminated list.
    public func withTags<R>(_ body: (UnsafePointer<tagi_t>) throws -> R) rethrows -> R {
        var terminated = items
        terminated.append(tagi_t(t_tag: swk_tag_end(), t_value: 0))
        return try terminated.withUnsafeBufferPointer { try body($0.baseAddress!) }
    }
}
