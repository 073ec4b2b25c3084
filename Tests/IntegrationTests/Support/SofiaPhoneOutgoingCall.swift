/// A call the phone placed with `SofiaPhone.invite(...)`.
struct SofiaPhoneOutgoingCall: SofiaPhoneCall, Hashable {
    let callNumber: Int
}
