@testable import SIPWake
import Testing

/// The digest username is the client's to choose: it reaches the log only
/// when it cannot pass for other metadata (fail2ban reads `client.address`).
@Suite struct SIPAuthenticatorLogTests {
    @Test func validUserNamesAreLoggedAsSent() {
        #expect(SIPAuthenticator.loggable("alice") == "alice")
        #expect(SIPAuthenticator.loggable("1002") == "1002")
    }

    @Test(arguments: ["x client.address=192.0.2.1", "a b", "tab\there", "line\nbreak", "", String(repeating: "a", count: 65)])
    func anythingElseIsADash(_ name: String) {
        #expect(SIPAuthenticator.loggable(name) == "-")
    }
}
