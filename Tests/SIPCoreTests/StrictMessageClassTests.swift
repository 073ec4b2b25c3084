@testable import SIPCore
import Testing

/// RFC 3261 §25.1: `Request-Line = Method SP Request-URI SP SIP-Version`.
@Suite struct StrictMessageClassTests {
    private func strict(_ line: String) -> Bool {
        Array(line.utf8).withUnsafeBytes { StrictMessageClass.isStrict($0.baseAddress!, $0.count) }
    }

    @Test func singleSpacesAreStrict() {
        #expect(strict("OPTIONS sip:localhost SIP/2.0"))
        #expect(strict("INVITE sip:alice@example.com;transport=tcp SIP/2.0"))
    }

    @Test(arguments: [
        "OPTIONS  sip:localhost SIP/2.0", "OPTIONS sip:localhost  SIP/2.0", "OPTIONS sip:localhost SIP/2.0 ",
        "OPTIONS\tsip:localhost SIP/2.0", "OPTIONS sip:localhost", "OPTIONS sip:a b SIP/2.0", "OPTIONS",
        " OPTIONS sip:localhost SIP/2.0", "",
    ])
    func anythingElseIsNot(_ line: String) {
        #expect(!strict(line))
    }

    @Test func theClassCopiesSofiasAndReplacesOnlyTheRequestLineParser() throws {
        let messageClass = try #require(StrictMessageClass())
        #expect(messageClass.mclass.pointee.mc_request.hr_class != nil)
        #expect(messageClass.mclass.pointee.mc_status.hr_class != nil)
    }
}
