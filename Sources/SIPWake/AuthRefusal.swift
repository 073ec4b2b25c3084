/// Why `SIPAuthenticator` refused a request's credentials, for the call
/// record of a refused INVITE: the status it answered and a reason an
/// operator reads ("credentials failed: wrong password"). A first challenge,
/// or a fresh one for a stale nonce, is the normal digest flow and no
/// refusal.
struct AuthRefusal: Equatable {
    var status: Int
    var reason: String

    static let prefix = "credentials failed: "

    init(_ status: Int, _ what: String) {
        self.status = status
        reason = Self.prefix + what
    }
}
