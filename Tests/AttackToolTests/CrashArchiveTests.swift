import Foundation
import SIPFuzz
import Testing

/// Saved inputs come back as the same bytes, transports, connections and order.
@Suite struct CrashArchiveTests {
    @Test(arguments: [
        ("0007.c3.tcp.sip", FuzzTransport.tcp, 3 as Int?),
        ("0008.udp.sip", .udp, nil),
        ("pipelined-content-length-2147483648.tls.sip", .tls, nil),
        ("a.c12.tls.sip", .tls, 12),
    ])
    func namesSayHowToSend(name: String, transport: FuzzTransport, connection: Int?) throws {
        let parsed = try #require(ReplayFile.parse(name: name))
        #expect(parsed.transport == transport)
        #expect(parsed.connection == connection)
    }

    @Test(arguments: ["input.sip", "x.sctp.sip", "x.tcp.txt", "tcp.sip"])
    func otherNamesAreRefused(name: String) {
        #expect(ReplayFile.parse(name: name) == nil)
    }

    @Test func savedInputsReplayAsTheyWereSent() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("archive-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var generator = FuzzInputGenerator(seed: 3, transports: FuzzTransport.allCases)
        var history = InputHistory(keepBefore: 4)
        for index in 0..<20 { history.append(generator.next(), sentAt: Double(index)) }
        let event = FuzzEvent(kind: .crash, at: 20, reason: "the target process 1 exited", lastAnsweredProbeSentAt: 15)
        let inputs = history.window(since: 15)
        // Sent at 15…19, and the four before.
        #expect(inputs.map(\.sentAt) == Array(11...19).map(Double.init))

        let configuration = try FuzzConfiguration(target: .init(parsing: "127.0.0.1:5060"), seed: 3)
        let folder = try CrashArchive(directory: directory).save(event: event, inputs: inputs, configuration: configuration, index: 1)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".sip") }.sorted()
        #expect(files.count == inputs.count)
        for (name, sent) in zip(files, inputs) {
            let file = try ReplayFile(path: (folder as NSString).appendingPathComponent(name))
            #expect(file.bytes == sent.input.bytes)
            #expect(file.transport == sent.input.transport)
            #expect(file.connection == sent.input.connection)
        }
        let readme = try String(contentsOfFile: (folder as NSString).appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("the target process 1 exited"))
        #expect(readme.contains("sip-fuzz --replay \(folder)/*.sip --target 127.0.0.1:5060"))
        #expect(readme.contains("| \(files[0]) |"))
    }

    @Test func historyKeepsTheLastInputsWhenNothingWasAnswered() {
        var generator = FuzzInputGenerator(seed: 3, transports: [.udp])
        var history = InputHistory(keepBefore: 64)
        for index in 0..<100 { history.append(generator.next(), sentAt: Double(index)) }
        #expect(history.window(since: nil).map(\.input.sequence) == Array(37...100))
        #expect(history.window(since: 1000).count == 64)
    }
}
