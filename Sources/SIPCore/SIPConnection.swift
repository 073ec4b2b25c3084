/// A live stream connection (TCP or TLS) to a phone, as `ConnectionTable`
/// hands it out: requests to a binding reached over a stream must go back
/// over the connection its REGISTER came in on (RFC 5626). Valid on the SIP
/// loop, while the table holds it; callers only pass it back to the agent.
public struct SIPConnection {
    /// Sofia's transport (`tport_t`), referenced by the connection table.
    let tport: OpaquePointer

    init(tport: OpaquePointer) {
        self.tport = tport
    }
}
