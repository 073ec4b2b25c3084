/// What a `SofiaPhone` knows about one call. Lives inside the phone actor and
/// is only touched on its SIP loop thread.
final class SofiaPhoneCallState {
    /// The call's `nua_handle_t`; nil once the call is over and released.
    var handle: OpaquePointer?
    /// Events not yet taken by `waitForEvent` (incoming calls).
    var events: [SofiaPhoneCallEvent] = []
    /// Responses not yet taken by `waitForResponse` (outgoing calls).
    var responses: [SofiaPhoneResponse] = []
    var byeReceived = false
    /// Final status of our own BYE, once answered.
    var byeStatus: Int?
    var terminated = false
    /// For outgoing calls: what was asked, so a challenged INVITE can be sent again.
    var invite: Invite?
    var authenticated = false

    struct Invite {
        var uri: String
        var proxy: String
        var from: String
        var headers: [(String, String)]
        var media: String
        var user: String?
        var password: String?
    }

    init(handle: OpaquePointer?) {
        self.handle = handle
    }
}
