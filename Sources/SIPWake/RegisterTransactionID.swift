import SIPCore

/// What names a REGISTER's transaction, as a server transaction would be
/// matched (RFC 3261 §17.2.3: the top Via's branch and sent-by; the method
/// is REGISTER), with the Call-ID, the CSeq and the source for safety:
/// 128 bits of two differently salted `Hasher`s, so that an answer kept
/// for its retransmissions costs 16 bytes of key whatever the request's
/// length. `Hasher` is seeded at random in every process, so a sender
/// cannot make two requests share a name on purpose; by chance, among the
/// answers kept (at most a few hundred thousand), it does not happen.
struct RegisterTransactionID: Hashable {
    let high: UInt64
    let low: UInt64

    init(_ request: IncomingRequest) {
        let message = request.message
        var first = Hasher()
        var second = Hasher()
        second.combine(0x5245_4749_5354_4552 as UInt64)
        for part in [message.viaBranch, message.viaSentBy, message.callID, request.source.host] {
            first.combine(part)
            second.combine(part)
        }
        first.combine(message.cseq)
        second.combine(message.cseq)
        first.combine(request.source.transport)
        second.combine(request.source.transport)
        high = UInt64(bitPattern: Int64(first.finalize()))
        low = UInt64(bitPattern: Int64(second.finalize()))
    }

    /// The name with these two halves.
    init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// The To tag of the answers to this transaction (RFC 3261 §8.2.6.2):
    /// derived from it, so a retransmission's answer carries the same one.
    var toTag: String { String(high >> 16, radix: 16) }
}
