import CSofiaSIP

/// A SIP URI as parsed by Sofia (`url_t`), copied into Swift values.
public struct SIPURI: Sendable, Hashable, CustomStringConvertible {
    public var scheme: String
    public var user: String?
    public var host: String
    public var port: String?
    /// The `;name=value` parameters, as Sofia keeps them (without the leading `;`).
    public var parameters: String?
    /// The whole URI encoded by Sofia.
    public var description: String

    /// Reads `url`. Returns nil for `*` and URIs without a host.
    public init?(_ url: UnsafePointer<url_t>) {
        let u = url.pointee
        guard u.url_type != Int8(url_any.rawValue), let host = u.url_host else { return nil }
        self.scheme = u.url_scheme.map { String(cString: $0) } ?? "sip"
        self.user = u.url_user.map { String(cString: $0) }
        self.host = String(cString: host)
        self.port = u.url_port.map { String(cString: $0) }
        self.parameters = u.url_params.map { String(cString: $0) }
        self.description = SofiaText.encode { buffer, size in url_e(buffer, size, url) }
    }

    /// Parses a URI written as text (`sip:pbx.example.com:5060;transport=tcp`)
    /// with Sofia. Returns nil when Sofia cannot read it or it has no host.
    public init?(parsing text: String) {
        guard let raw = su_home_new(isize_t(MemoryLayout<su_home_t>.size)) else { return nil }
        let home = raw.assumingMemoryBound(to: su_home_t.self)
        defer { su_home_unref(home) }
        guard let url = text.withCString({ url_make(home, $0) }) else { return nil }
        self.init(UnsafePointer(url))
    }

    /// Value of a URI parameter such as `transport`, or nil. A value can be
    /// as long as the parameters themselves (an RFC 8599 `pn-prid` is a push
    /// token of a few hundred characters).
    public func parameter(_ name: String) -> String? {
        guard let parameters else { return nil }
        var buffer = [CChar](repeating: 0, count: parameters.utf8.count + 1)
        let length = url_param(parameters, name, &buffer, isize_t(buffer.count))
        guard length > 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// True when the URI has the parameter, with or without a value.
    public func hasParameter(_ name: String) -> Bool {
        guard let parameters else { return false }
        return url_param(parameters, name, nil, 0) > 0
    }
}
