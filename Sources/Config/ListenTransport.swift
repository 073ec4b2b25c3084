/// The transport of one `[sip] listen` entry.
public enum ListenTransport: String, Sendable, Hashable, CaseIterable {
    case udp
    case tcp
    case tls
}
