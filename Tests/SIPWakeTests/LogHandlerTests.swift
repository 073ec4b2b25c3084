import Foundation
import Logging
import SIPWake
import Synchronization
import Testing

/// What an operator reads: text lines with the message before the
/// metadata, JSON lines with millisecond UTC times and numbers as numbers.
@Suite struct LogHandlerTests {
    final class Lines: Sendable {
        let lines = Mutex<[String]>([])
        func add(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    @Test func aTextLineHasTheMessageBeforeItsSortedMetadata() throws {
        let lines = Lines()
        var logger = Logger(label: "sipwake") { TextLogHandler(label: $0, write: lines.add) }
        logger[metadataKey: "call.pairing_id"] = "p-1"
        logger.warning("digest authentication failed",
                       metadata: ["sip.user": "alice", "client.address": "203.0.113.7", "sip.method": "REGISTER"])
        let line = try #require(lines.all.first)
        #expect(line.hasSuffix(" warning sipwake: [SIPWakeTests] digest authentication failed " +
                               "call.pairing_id=p-1 client.address=203.0.113.7 sip.method=REGISTER sip.user=alice\n"), "\(line)")
        // The time fail2ban's datepattern reads: %Y-%m-%dT%H:%M:%S%z.
        let time = String(line.prefix { $0 != " " })
        #expect(time.range(of: #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{4}$"#, options: .regularExpression) != nil, "\(time)")
    }

    @Test func aJSONLineHasMillisecondsAndNumbersAsNumbers() throws {
        let lines = Lines()
        let logger = Logger(label: "sipwake") { label in
            JSONLogHandler(label: label, write: { lines.add(String(decoding: $0, as: UTF8.self)) })
        }
        logger.info("call ended", metadata: ["call.callee": "1000", "call.pushes": .stringConvertible(2),
                                             "call.answer_ms": .stringConvertible(1840), "call.outcome": "answered"])
        let line = try #require(lines.all.first)
        #expect(line.hasSuffix("\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["msg"] as? String == "call ended")
        #expect(object["level"] as? String == "info")
        #expect(object["call.pushes"] as? Int == 2)
        #expect(object["call.answer_ms"] as? Int == 1840)
        #expect(object["call.callee"] as? String == "1000", "a value logged as text stays text")
        let ts = try #require(object["ts"] as? String)
        #expect(ts.range(of: #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$"#, options: .regularExpression) != nil, "\(ts)")
    }

    @Test func everyLoggerFollowsTheSharedLevelUntilItSetsItsOwn() {
        let lines = Lines()
        let level = LogLevelControl(.info)
        let text = Logger(label: "sipwake") { TextLogHandler(label: $0, level: level, write: lines.add) }
        let json = Logger(label: "sipwake") { JSONLogHandler(label: $0, level: level, write: { lines.add(String(decoding: $0, as: UTF8.self)) }) }
        var own = Logger(label: "sipwake") { TextLogHandler(label: $0, level: level, write: lines.add) }
        own.logLevel = .error
        text.debug("before the reload")
        json.debug("before the reload")
        #expect(lines.all.isEmpty)
        level.level = .debug
        text.debug("after the reload")
        json.debug("after the reload")
        own.warning("below its own level")
        #expect(lines.all.count == 2)
        #expect(lines.all.allSatisfy { $0.contains("after the reload") })
        #expect(text.logLevel == .debug)
        #expect(own.logLevel == .error)
    }
}
