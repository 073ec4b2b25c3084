/// What one wait on a UDP socket brought.
public enum DatagramResult: Sendable, Equatable {
    case datagram([UInt8])
    case timeout
    /// ICMP port unreachable came back for something we sent: nothing listens
    /// on the target's port any more.
    case refused
}
