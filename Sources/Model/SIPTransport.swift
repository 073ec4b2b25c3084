/// The transport a request arrived on, and the one a binding is reached over.
public enum SIPTransport: String, Sendable, Codable, CaseIterable {
    case udp
    case tcp
    case tls

    /// Stream transports keep a connection that requests to the binding must reuse.
    public var isStream: Bool { self != .udp }
}
