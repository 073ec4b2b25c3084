import Forking
import Foundation
import Model
import Testing

/// The device that answered is not told the call was answered elsewhere,
/// whichever way its binding and its device tuple know each other: its
/// `+sip.instance` (the RFC 8599 REGISTER's selector, or the selector its
/// app reported) or the push token its Contact names. Each test pushes two
/// tuples, rings device a (branch 1) and device b, and answers on a.
@Suite struct AnsweringDeviceTests {
    typealias F = ForkFixture
    static let uuidA = "6f1c2a3b-0000-4000-8000-00000000000a"
    static let instanceA = "<urn:uuid:\(uuidA)>"
    static let deviceB = F.binding("b", instance: "<urn:uuid:6f1c2a3b-0000-4000-8000-00000000000b>", token: "tok-b")

    static func tuple(_ id: Int64, selector: String, calls: String, other: String? = nil) -> PushTarget {
        PushTarget(tupleID: id, selector: selector, callsAppID: "app.calls", callsToken: calls,
                   otherAppID: "app.other", otherToken: other ?? calls)
    }

    /// The tuple ids told "answered elsewhere" when `answering` takes the call.
    static func toldAnsweredElsewhere(answering: Binding, tupleA: PushTarget) -> [Int64] {
        let tupleB = tuple(2, selector: "sel-b", calls: "tok-b")
        var (fork, started) = F.started(bindings: [answering, deviceB], targets: [tupleA, tupleB])
        #expect(started.pushes.map(\.2) == [.incomingCall, .incomingCall])
        let actions = fork.handle(.final(1, status: 200), now: F.at(1))
        #expect(fork.record.outcome == .answered)
        return actions.pushes.filter { $0.2 == .answeredElsewhere }.map(\.1.tupleID)
    }

    @Test func aDeviceSipwakeCannotTellIsToldLikeTheOthers() {
        let answering = F.binding("a", instance: Self.instanceA, token: "tok-unknown")
        #expect(Self.toldAnsweredElsewhere(answering: answering, tupleA: Self.tuple(1, selector: "sel-a", calls: "tok-a"))
            == [1, 2])
    }

    @Test func byTheInstanceItsRFC8599RegisterMadeTheSelector() {
        let answering = F.binding("a", instance: Self.instanceA)
        let tuple = Self.tuple(1, selector: "rfc8599:alice:\(Self.instanceA)", calls: "tok-a")
        #expect(Self.toldAnsweredElsewhere(answering: answering, tupleA: tuple) == [2])
    }

    @Test(arguments: [
        "<urn:uuid:6f1c2a3b-0000-4000-8000-00000000000a>", "urn:uuid:6f1c2a3b-0000-4000-8000-00000000000a",
        "6f1c2a3b-0000-4000-8000-00000000000a", "URN:UUID:6F1C2A3B-0000-4000-8000-00000000000A",
    ])
    func byTheInstanceItsAppReportedAsSelector(selector: String) {
        let answering = F.binding("a", instance: Self.instanceA)
        #expect(Self.toldAnsweredElsewhere(answering: answering, tupleA: Self.tuple(1, selector: selector, calls: "tok-a"))
            == [2])
    }

    @Test func byTheTokenItsContactNames() {
        let answering = F.binding("a", token: "tok-a")
        #expect(Self.toldAnsweredElsewhere(answering: answering, tupleA: Self.tuple(1, selector: "sel-a", calls: "tok-a"))
            == [2])
    }

    @Test func byEitherOfLinphonesTwoTokens() {
        let answering = F.binding("a", token: "voip-a:voip&alert-a:remote")
        let tuple = Self.tuple(1, selector: "sel-a", calls: "voip-a", other: "alert-a")
        #expect(Self.toldAnsweredElsewhere(answering: answering, tupleA: tuple) == [2])
    }

    @Test func byATokenTheContactEscaped() {
        // An FCM token holds a ':'; the Contact may carry it %-escaped. The
        // state machine compares the token as the SIP layer read it.
        let answering = F.binding("a", token: "dQw4w9WgXcQ%3AAPA91bH-a")
        let tuple = Self.tuple(1, selector: "sel-a", calls: "dQw4w9WgXcQ:APA91bH-a")
        #expect(Self.toldAnsweredElsewhere(answering: answering, tupleA: tuple) == [2])
    }
}
