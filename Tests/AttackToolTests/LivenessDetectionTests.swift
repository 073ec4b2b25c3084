import Foundation
import SIPAttackSupport
import SIPFuzz
import Testing

/// The fuzzer tells a stall and a crash from a server that answers, and
/// saves the inputs that preceded them.
@Suite(.serialized) struct LivenessDetectionTests {
    static func run(_ server: FakeOptionsServer, duration: Double, pid: Int32? = nil, output: String,
                    then change: (FakeOptionsServer.Behaviour, after: Double)?) throws -> FuzzSummary {
        let stop = StopFlag()
        let configuration = try FuzzConfiguration(
            target: LoopbackEndpoint(host: "127.0.0.1", port: server.port), transports: [.udp], duration: duration,
            rate: 50, seed: 99, pid: pid, outputDirectory: output, keep: 8)
        var background: [(name: String, body: @Sendable () -> Void)] = [(name: "fake-server", body: { server.run(stop: stop) })]
        if let change {
            background.append((name: "fake-change", body: {
                MonotonicClock.sleep(seconds: change.after)
                server.set(change.0)
            }))
        }
        return try ScopedThreads.run(background, stop: stop.stop) {
            try FuzzCampaign(configuration).run()
        }
    }

    static func temporaryDirectory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("liveness-\(UUID().uuidString)").path
    }

    static func savedFiles(_ summary: FuzzSummary) throws -> [String] {
        let folder = try #require(summary.saved.first)
        return try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    @Test func aServerThatAnswersPasses() throws {
        let output = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: output) }
        let summary = try Self.run(FakeOptionsServer(), duration: 1.5, output: output, then: nil)
        #expect(summary.passed, "\(summary.report)")
        #expect(summary.crashes == 0 && summary.stalls == 0)
        #expect(summary.transports[.udp]?.inputs ?? 0 >= 50)
        #expect(summary.liveness.probesAnswered >= 5)
        #expect(summary.report.hasSuffix("result          PASS"))
    }

    @Test func aServerThatGoesSilentStalls() throws {
        let output = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: output) }
        let summary = try Self.run(FakeOptionsServer(), duration: 3, output: output, then: (.silent, after: 1.5))
        #expect(summary.stalls == 1, "\(summary.report)")
        #expect(summary.crashes == 0)
        #expect(!summary.passed)
        #expect(summary.events.first?.hasPrefix("stall at +") == true)
        let files = try Self.savedFiles(summary)
        #expect(files.contains("README.md"))
        #expect(files.filter { $0.hasSuffix(".udp.sip") }.count > 8, "the inputs since the last answer, and 8 before")
        #expect(summary.saved.first?.contains("/stall-") == true)
    }

    @Test func aClosedPortWithoutAPidIsACrash() throws {
        let output = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: output) }
        let start = MonotonicClock.now()
        let summary = try Self.run(FakeOptionsServer(), duration: 10, output: output, then: (.closed, after: 1))
        #expect(summary.crashes == 1, "\(summary.report)")
        #expect(MonotonicClock.now() - start < 5, "a crash ends the run")
        #expect(summary.saved.first?.contains("/crash-") == true)
        #expect(try Self.savedFiles(summary).contains("README.md"))
    }

    @Test func anExitedProcessIsACrash() throws {
        let output = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: output) }
        let sleeper = Process()
        sleeper.executableURL = URL(fileURLWithPath: "/bin/sleep")
        sleeper.arguments = ["1"]
        try sleeper.run()
        let summary = try Self.run(FakeOptionsServer(), duration: 10, pid: sleeper.processIdentifier, output: output, then: nil)
        sleeper.waitUntilExit()
        #expect(summary.crashes == 1, "\(summary.report)")
        #expect(summary.events.first?.contains("the target process \(sleeper.processIdentifier) exited") == true)
        #expect(summary.memory.start != nil, "the VmRSS of the process was read while it ran")
    }

    @Test func aSilentTargetIsRefusedBeforeTheFirstInput() throws {
        let server = try FakeOptionsServer()
        server.set(.silent)
        #expect(throws: FuzzError.self) {
            _ = try Self.run(server, duration: 1, output: Self.temporaryDirectory(), then: nil)
        }
    }
}
