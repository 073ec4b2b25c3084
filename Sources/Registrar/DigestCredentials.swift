/// Parsed Authorization / Proxy-Authorization parameters (RFC 2617 §3.2.2),
/// as the SIP layer got them from Sofia's parser: names lower-cased, quotes removed.
public struct DigestCredentials: Sendable, Equatable {
    public var username: String
    public var realm: String
    public var nonce: String
    public var uri: String
    public var response: String
    public var algorithm: DigestAlgorithm
    public var qop: String?
    public var nc: String?
    public var cnonce: String?
    public var opaque: String?

    public init(
        username: String, realm: String, nonce: String, uri: String, response: String,
        algorithm: DigestAlgorithm, qop: String? = nil, nc: String? = nil, cnonce: String? = nil, opaque: String? = nil
    ) {
        self.username = username
        self.realm = realm
        self.nonce = nonce
        self.uri = uri
        self.response = response
        self.algorithm = algorithm
        self.qop = qop
        self.nc = nc
        self.cnonce = cnonce
        self.opaque = opaque
    }

    /// Builds from a `[name: value]` dictionary; nil (→ 400) when a required
    /// parameter is missing or the algorithm is unknown.
    ///
    /// - username, realm, nonce, uri and response are required (RFC 2617 §3.2.2).
    /// - A missing `algorithm` means MD5 (RFC 2617 §3.2.1, RFC 7616 §3.3).
    /// - With `qop`, `cnonce` and `nc` are required (RFC 2617 §3.2.2: they
    ///   MUST be sent when qop is).
    public init?(parameters: [String: String]) {
        var p: [String: String] = [:]
        for (name, value) in parameters { p[name.lowercased()] = value }
        guard let username = p["username"], let realm = p["realm"], let nonce = p["nonce"],
              let uri = p["uri"], let response = p["response"] else { return nil }
        let algorithm: DigestAlgorithm
        if let token = p["algorithm"] {
            guard let known = DigestAlgorithm(token: token) else { return nil }
            algorithm = known
        } else {
            algorithm = .md5
        }
        let qop = p["qop"]
        if qop != nil && (p["nc"] == nil || p["cnonce"] == nil) { return nil }
        self.init(
            username: username, realm: realm, nonce: nonce, uri: uri, response: response,
            algorithm: algorithm, qop: qop, nc: p["nc"], cnonce: p["cnonce"], opaque: p["opaque"]
        )
    }
}
