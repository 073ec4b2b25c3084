/// A new INVITE the phone received, copied out of Sofia.
struct SofiaPhoneIncomingCall: SofiaPhoneCall {
    let callNumber: Int
    /// The Request-URI, e.g. `sip:alice@127.0.0.1:40000`.
    let requestURI: String
    let callID: String
    /// From and To header values as received.
    let from: String
    let to: String
    /// Every header of the INVITE (`headers["X-Push-ID"]`, `headers["Record-Route"]`, ...).
    let headers: SofiaPhoneHeaders
    /// The INVITE as it arrived (request line, headers, body).
    let text: String

    /// The first value of a header, by case-insensitive name.
    func header(_ name: String) -> String? { headers.first(name) }
}
