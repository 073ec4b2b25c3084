import Foundation
import Model
import Registrar
@testable import SIPWake
import Testing

/// Which refused INVITEs get a call record, and what it holds.
@Suite struct RejectedCallTests {
    static let t0 = Date(timeIntervalSince1970: 1_700_000_000)

    @Test func onlyFailedCredentialsAreRefusalsNotTheChallengesAPhoneAnswersByItself() {
        #expect(SIPAuthenticator.refusal(.wrongResponse, knownUser: true, status: 407)
            == AuthRefusal(407, "wrong password"))
        #expect(SIPAuthenticator.refusal(.wrongResponse, knownUser: false, status: 407)
            == AuthRefusal(407, "no such user"))
        #expect(SIPAuthenticator.refusal(.replayed, knownUser: true, status: 407)?.reason
            == "credentials failed: replayed nonce")
        for normal: DigestChallengeReason in [.noCredentials, .otherRealmOrAlgorithm, .foreignNonce, .staleNonce,
                                               .exhausted, .forgotten] {
            #expect(SIPAuthenticator.refusal(normal, knownUser: true, status: 407) == nil, "\(normal)")
        }
    }

    @Test func theCapRecordsSixtyAMinuteAndSaysOnceWhenItSkips() {
        var cap = RejectedCallCap()
        for i in 0..<60 {
            #expect(cap.decide(now: Self.t0.addingTimeInterval(Double(i) / 2)) == .record)
        }
        #expect(cap.decide(now: Self.t0.addingTimeInterval(30)) == .skip(first: true))
        #expect(cap.decide(now: Self.t0.addingTimeInterval(59.9)) == .skip(first: false))
        // A new minute, a new window.
        #expect(cap.decide(now: Self.t0.addingTimeInterval(60)) == .record)
        for _ in 1..<60 { _ = cap.decide(now: Self.t0.addingTimeInterval(61)) }
        #expect(cap.decide(now: Self.t0.addingTimeInterval(62)) == .skip(first: true), "told again in the new minute")
    }

    @Test func aClockThatWentBackStartsANewWindow() {
        var cap = RejectedCallCap(perMinute: 1)
        #expect(cap.decide(now: Self.t0) == .record)
        #expect(cap.decide(now: Self.t0) == .skip(first: true))
        #expect(cap.decide(now: Self.t0.addingTimeInterval(-5)) == .record)
    }

    @Test func aCapOfZeroRecordsNothing() {
        var cap = RejectedCallCap(perMinute: 0)
        #expect(cap.decide(now: Self.t0) == .skip(first: true))
    }

    @Test func theRecordStartsAndEndsAtTheRefusal() {
        let source = BindingSource(transport: .tcp, host: "198.51.100.7", port: 50123)
        let record = RejectedCalls.record(
            id: "rec", pairingID: "", callID: "c1@pbx", callee: "nobody", caller: "sip:1002@pbx.example.com",
            callerDisplayName: "Bob", source: source, at: Self.t0, status: 404, reason: "unknown user")
        #expect(record.outcome == .rejected)
        #expect(record.finalStatus == 404)
        #expect(record.reason == "unknown user")
        #expect(record.startedAt == Self.t0 && record.endedAt == Self.t0)
        #expect(record.pushes.isEmpty && record.branches.isEmpty)
        #expect(record.events.map(\.event) == ["invite received", "call rejected"])
        #expect(record.events.last?.detail == "status=404 source=tcp:198.51.100.7:50123")
    }
}
