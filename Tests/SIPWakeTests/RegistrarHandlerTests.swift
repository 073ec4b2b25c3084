import Foundation
import Model
@testable import SIPWake
import Testing

/// The parts of the registrar's 200 OK and of its undo when a change could
/// not be stored.
@Suite struct RegistrarHandlerTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func binding(_ contact: String, q: Int? = nil, instance: String? = nil, regID: Int? = nil,
                 expiresIn: TimeInterval = 600) -> Binding {
        Binding(aor: "alice", contact: contact, instanceID: instance, regID: regID, callID: "c", cseq: 1, q: q,
                expiresAt: now.addingTimeInterval(expiresIn),
                source: BindingSource(transport: .udp, host: "192.0.2.1", port: 5060),
                registeredAt: now, updatedAt: now)
    }

    @Test(arguments: [(1000, "1"), (500, "0.5"), (50, "0.05"), (5, "0.005"), (0, "0.0"), (123, "0.123")])
    func qValuesAreWrittenShortest(q: Int, text: String) {
        #expect(RegistrarHandler.formatQ(q) == text)
    }

    @Test func contactCarriesExpiryQAndOutboundParameters() {
        let value = RegistrarHandler.contactValue(
            binding("sip:alice@10.0.0.1", q: 700, instance: "<urn:uuid:1>", regID: 1, expiresIn: 599.5), now: now)
        #expect(value == #"<sip:alice@10.0.0.1>;expires=600;q=0.7;+sip.instance="<urn:uuid:1>";reg-id=1"#)
        #expect(RegistrarHandler.contactValue(binding("sip:a@h"), now: now) == "<sip:a@h>;expires=600")
    }

    @Test func undoReversesEveryChangeInReverseOrder() {
        let a = binding("sip:a@h"), b = binding("sip:b@h"), b2 = binding("sip:b@h", expiresIn: 60)
        let undo = RegistrarHandler.inverse(of: [.added(a), .refreshed(old: b, new: b2), .removed(b, reason: .unregistered)])
        #expect(undo == [.added(b), .refreshed(old: b2, new: b), .removed(a, reason: .unregistered)])
    }

    @Test func dateHeaderIsRFC1123() {
        #expect(RegistrarHandler.httpDate(now) == "Fri, 15 Jan 2027 08:00:00 GMT")
    }
}
