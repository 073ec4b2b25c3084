/// One registration of a `SofiaPhone` (one address of record at one
/// registrar), kept on one NUA handle so that a repeated REGISTER is a
/// refresh: same Call-ID, higher CSeq. Phone's SIP loop thread only.
final class SofiaPhoneRegistration {
    let handle: OpaquePointer
    let domain: String
    let user: String
    var password: String
    /// Header values of the REGISTER being sent (Contact, Expires, proxy).
    var contact: String = ""
    var expires: Int = 600
    let proxy: String
    /// The final response of the REGISTER in progress, once it arrived.
    var finalResponse: SofiaPhoneResponse?
    /// Credentials were already sent for the REGISTER in progress.
    var authenticated = false

    init(handle: OpaquePointer, domain: String, user: String, password: String, proxy: String) {
        self.handle = handle
        self.domain = domain
        self.user = user
        self.password = password
        self.proxy = proxy
    }
}
