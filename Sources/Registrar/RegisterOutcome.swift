import Model
/// What the registrar decided about one REGISTER.
public enum RegisterOutcome: Sendable, Equatable {
    /// Accepted: `changes` to apply and persist, in order; `bindings` is every
    /// current binding of the AOR after the request, for the 200 OK's Contact
    /// list (RFC 3261 §10.3 step 8), sorted by q descending, then most
    /// recently updated first.
    case accepted(changes: [BindingChange], bindings: [Binding])
    /// Rejected with a SIP status: 400 bad wildcard use or invalid expires,
    /// 403 more contacts than the per-AOR cap, 423 interval too brief (with
    /// `minExpires` for the Min-Expires header), 500 out-of-order CSeq
    /// (RFC 3261 §10.3 step 7). Nothing was changed. `minExpires` is set only for 423.
    case rejected(status: Int, reason: String, minExpires: Int?)
}
