@testable import SIPWake
import Testing

/// The requests waiting for a user lookup are bounded in all and per
/// source; a retransmission of one that waits is recognised.
@Suite struct ParkedRequestsTests {
    @Test func aSourceParksAtMostItsShare() {
        var parked = ParkedRequests(total: 100, perSource: 3)
        let outcomes = (0..<5).map { parked.park("call-\($0)", source: "192.0.2.1") }
        #expect(outcomes == [.parked, .parked, .parked, .full, .full])
        #expect(parked.park("other", source: "192.0.2.2") == .parked, "another source still parks")
        parked.release("call-0")
        #expect(parked.park("call-5", source: "192.0.2.1") == .parked, "a released request makes room")
    }

    @Test func theTotalIsBoundedWhateverTheSources() {
        var parked = ParkedRequests(total: 4, perSource: 3)
        let outcomes = (0..<6).map { parked.park("call-\($0)", source: "192.0.2.\($0)") }
        #expect(outcomes == [.parked, .parked, .parked, .parked, .full, .full])
        #expect(parked.count == 4)
    }

    @Test func aRetransmissionIsRecognisedAndNotCounted() {
        var parked = ParkedRequests(total: 10, perSource: 1)
        #expect(parked.park("call", source: "192.0.2.1") == .parked)
        #expect(parked.park("call", source: "192.0.2.1") == .retransmission)
        #expect(parked.count == 1)
        parked.release("call")
        parked.release("call")
        #expect(parked.count == 0)
        #expect(parked.park("again", source: "192.0.2.1") == .parked, "the source's count went back to 0, not below")
    }
}
