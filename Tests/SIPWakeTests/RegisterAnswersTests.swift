import Foundation
import Prometheus
@testable import SIPWake
import Testing

/// A REGISTER still being handled has its retransmissions dropped, but only
/// while its phone may still retransmit (32 s): one whose handling never
/// ended does not swallow a later request of the same name forever, and the
/// REGISTERs in progress stay bounded.
@Suite struct RegisterAnswersTests {
    static let t0 = Date(timeIntervalSince1970: 1_700_000_000)
    let registry = PrometheusCollectorRegistry()

    func makeAnswers() -> RegisterAnswers {
        RegisterAnswers(maxEntries: 100, maxBytes: 1 << 20,
                        metrics: RegistrarMetrics(factory: PrometheusMetricsFactory(registry: registry)))
    }

    static func id(_ n: UInt64) -> RegisterTransactionID { RegisterTransactionID(high: n, low: ~n) }

    static func isInProgress(_ retransmission: RegisterAnswers.Retransmission?) -> Bool {
        if case .inProgress = retransmission { return true }
        return false
    }

    @Test func aRegisterInProgressSwallowsItsRetransmissionsWhileItsPhoneRetransmits() {
        var answers = makeAnswers()
        answers.begin(Self.id(1), now: Self.t0)
        #expect(Self.isInProgress(answers.retransmission(Self.id(1), now: Self.t0.addingTimeInterval(31.9))))
        #expect(answers.retransmission(Self.id(2), now: Self.t0) == nil, "another name is a new REGISTER")
    }

    @Test func aRegisterNeverAnsweredIsForgottenAfter32Seconds() {
        var answers = makeAnswers()
        answers.begin(Self.id(1), now: Self.t0)
        answers.begin(Self.id(2), now: Self.t0.addingTimeInterval(10))
        // Even before the tick that expires it, it no longer swallows anything.
        #expect(answers.retransmission(Self.id(1), now: Self.t0.addingTimeInterval(32)) == nil)
        #expect(answers.expire(now: Self.t0.addingTimeInterval(32)) == 1, "one left unanswered")
        #expect(answers.inProgressCount == 1)
        #expect(answers.retransmission(Self.id(1), now: Self.t0.addingTimeInterval(33)) == nil)
        #expect(Self.isInProgress(answers.retransmission(Self.id(2), now: Self.t0.addingTimeInterval(33))))
        #expect(answers.expire(now: Self.t0.addingTimeInterval(42)) == 1)
        #expect(answers.inProgressCount == 0)
    }

    @Test func aRegisterThatEndedIsNoLongerInProgressNorCountedUnanswered() {
        var inProgress = RegistersInProgress(lifetime: RegisterAnswers.lifetime)
        inProgress.begin(Self.id(1), now: Self.t0)
        inProgress.begin(Self.id(2), now: Self.t0)
        inProgress.end(Self.id(1))
        #expect(!inProgress.contains(Self.id(1), now: Self.t0))
        #expect(inProgress.contains(Self.id(2), now: Self.t0))
        #expect(inProgress.expire(now: Self.t0.addingTimeInterval(60)) == 1, "only the one that never ended")
        #expect(inProgress.count == 0)
    }

    @Test func aRegisterBegunAgainAfterItEndedIsInProgressAgain() {
        var inProgress = RegistersInProgress(lifetime: 32)
        inProgress.begin(Self.id(1), now: Self.t0)
        inProgress.end(Self.id(1))
        inProgress.begin(Self.id(1), now: Self.t0.addingTimeInterval(20))
        #expect(inProgress.expire(now: Self.t0.addingTimeInterval(40)) == 0, "its first begin ended")
        #expect(inProgress.contains(Self.id(1), now: Self.t0.addingTimeInterval(40)))
        #expect(inProgress.expire(now: Self.t0.addingTimeInterval(52)) == 1)
    }

    @Test func manyRegistersOverTimeKeepTheSetBounded() {
        var inProgress = RegistersInProgress(lifetime: 32)
        var most = 0
        for n in 0..<10_000 {
            let now = Self.t0.addingTimeInterval(Double(n) / 100)
            inProgress.begin(Self.id(UInt64(n)), now: now)
            // Most are answered at once, one in ten never.
            if n % 10 != 0 { inProgress.end(Self.id(UInt64(n))) }
            inProgress.expire(now: now)
            most = max(most, inProgress.count)
        }
        #expect(most <= 321, "the unanswered ones of the last 32 s at most")
    }
}
