import Foundation
import Model
import Push
import Testing
import TestSupport

/// The client's own figure for benchmarks: INVITE → push request on the
/// wire, per provider, logged when it stops.
@Suite struct PushRequestLatencyTests {
    @Test func theClientLogsEachProvidersInviteToRequestTimeWhenItStops() async throws {
        let recorder = LogRecorder()
        try await PushFixtures.withSinkAndClient(clientLogger: recorder.logger) { _, client, _ in
            var incoming = PushFixtures.incomingCall()
            // The INVITE came half a second before the push was handed over.
            incoming.callStartedAt = Date().addingTimeInterval(-0.5)
            #expect(await PushFixtures.send(incoming, with: client).kind == .delivered)
            var missed = PushFixtures.incomingCall()
            missed.event = .missed
            #expect(await PushFixtures.send(missed, with: client).kind == .delivered)
        }
        let entry = try #require(recorder.entries("push latency").first)
        let summary = try #require(entry.metadata["latency.invite_to_request_sent.acrobits"])
        // One sample: end-of-call pushes are not counted.
        #expect(summary.hasPrefix("n=1 "), "\(summary)")
        // Counted from the INVITE, not from the hand-over.
        let p50 = summary.split(separator: " ").first { $0.hasPrefix("p50=") }
            .flatMap { Int($0.dropFirst(4).dropLast(2)) }
        #expect((p50 ?? 0) >= 500_000, "\(summary)")
    }

    @Test func nothingIsLoggedWithoutAnIncomingCallPush() async throws {
        let recorder = LogRecorder()
        try await PushFixtures.withSinkAndClient(clientLogger: recorder.logger) { _, client, _ in
            var missed = PushFixtures.incomingCall()
            missed.event = .missed
            _ = await PushFixtures.send(missed, with: client)
        }
        #expect(recorder.entries("push latency").isEmpty)
    }
}
