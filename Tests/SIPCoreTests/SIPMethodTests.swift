import CSofiaSIP
import Model
@testable import SIPCore
import Testing

/// `SIPMethod` names the methods the registrar and proxy tell apart, from
/// the wire name and from Sofia's parse.
@Suite struct SIPMethodTests {
    @Test(arguments: [
        ("REGISTER", SIPMethod.register), ("INVITE", .invite), ("ACK", .ack), ("CANCEL", .cancel),
        ("BYE", .bye), ("OPTIONS", .options), ("MESSAGE", .message),
    ])
    func knownNamesRoundTrip(name: String, method: SIPMethod) {
        #expect(SIPMethod(name: name) == method)
        #expect(method.name == name)
    }

    @Test func otherMethodsKeepTheirName() {
        #expect(SIPMethod(name: "UPDATE") == .other("UPDATE"))
        #expect(SIPMethod.other("PRACK").name == "PRACK")
    }

    @Test func methodNamesAreCaseSensitive() {
        // RFC 3261 §7.1: "invite" is an extension method, not INVITE.
        #expect(SIPMethod(name: "invite") == .other("invite"))
    }

    @Test func sofiaCodesMapToTheSameMethods() {
        #expect(SIPMethod(sofia: sip_method_register, name: "REGISTER") == .register)
        #expect(SIPMethod(sofia: sip_method_invite, name: "INVITE") == .invite)
        #expect(SIPMethod(sofia: sip_method_ack, name: "ACK") == .ack)
        #expect(SIPMethod(sofia: sip_method_cancel, name: "CANCEL") == .cancel)
        #expect(SIPMethod(sofia: sip_method_bye, name: "BYE") == .bye)
        #expect(SIPMethod(sofia: sip_method_options, name: "OPTIONS") == .options)
        #expect(SIPMethod(sofia: sip_method_message, name: "MESSAGE") == .message)
        #expect(SIPMethod(sofia: sip_method_update, name: "UPDATE") == .other("UPDATE"))
        #expect(SIPMethod(sofia: sip_method_unknown, name: "FOO") == .other("FOO"))
    }
}
