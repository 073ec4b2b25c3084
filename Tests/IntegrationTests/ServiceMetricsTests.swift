import Config
import Foundation
import Logging
import Model
import Prometheus
import Registrar
import SIPWake
import SQLiteStorage
import StorageSupport
import ServiceLifecycle
import TestSupport
import Testing

/// Real SIP traffic moves the counters of the metrics backend the SIP
/// service is given: a challenge, a wrong password and an accepted
/// REGISTER, a retransmission answered again, a relay refused, each over
/// UDP to a service running in this process; and what Sofia holds, read
/// from the same metrics while the traffic goes on.
@Suite(.serialized) struct ServiceMetricsTests {
    /// Runs a SIP service on a free UDP port with alice as its user and
    /// `extraConfig`, lets `traffic` talk to it, shuts it down, and returns
    /// the metrics text and the call records it wrote (when `records`). The
    /// metrics go to `registry`, which `traffic` may read as it goes.
    func run(trustedPeers: [String] = [], extraConfig: String = "", records: Bool = false,
             registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(), log: LogRecorder? = nil,
             before: (SipwakeDatabase) throws -> Void = { _ in },
             traffic: (Int) throws -> Void) async throws -> (metrics: String, calls: [CallRecord]) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("metrics-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let port = try TestPorts.free()
        let config = try SipwakeConfig.parse("""
            [sip]
            listen = ["udp:127.0.0.1:\(port)"]
            domains = ["localhost"]
            [auth]
            algorithms = ["MD5"]
            trusted_peers = [\(trustedPeers.map { "\"\($0)\"" }.joined(separator: ", "))]
            [database]
            path = "\(directory.appendingPathComponent("db.sqlite").path)"
            [http]
            listen = ""
            [push]
            enabled = false
            \(extraConfig)
            """, file: "metrics.toml", environment: [:])
        let database = try SipwakeDatabase(path: config.database.path)
        defer { try? database.close() }
        let realm = config.auth.effectiveRealm
        _ = try UserStore(database: database).add(
            username: "alice", realm: realm,
            ha1MD5: DigestHash.ha1(username: "alice", realm: realm, password: "alice-secret", algorithm: .md5),
            ha1SHA256: DigestHash.ha1(username: "alice", realm: realm, password: "alice-secret", algorithm: .sha256))

        try before(database)
        let logger = log?.logger ?? Logger(label: "metrics-test") { _ in SwiftLogNoOpLogHandler() }
        let (ready, readySignal) = AsyncStream.makeStream(of: Void.self)
        let store = CallRecordStore(database: database)
        let service = SIPService(
            config: config, stores: database.stores,
            bindingJournal: BindingWriter(store: BindingStore(database: database), logger: logger),
            callRecords: records ? CallRecordWriter(store: store, logger: logger) : nil, logger: logger,
            metrics: PrometheusMetricsFactory(registry: registry), ready: { readySignal.yield() })
        let group = ServiceGroup(configuration: .init(services: [service], logger: logger))
        let running = Task { try await group.run() }
        var readiness = ready.makeAsyncIterator()
        _ = await readiness.next()
        // Off Swift's cooperative threads: the service's own timers need them.
        try await withTaskExecutorPreference(BlockingWorkExecutor()) { try traffic(port) }
        await group.triggerGracefulShutdown()
        try await running.value
        return (registry.emitToString(), records ? try store.list(limit: 100, offset: 0) : [])
    }

    /// The value of the metric line `name` in `text`.
    func value(_ name: String, in text: String) -> String? {
        text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.map { String($0.dropFirst(name.count + 1)) }
    }

    @Test func anOpenCallRecordThatCannotBeReadIsCountedAndLeftOpenAtStart() async throws {
        let (text, _) = try await run(before: { database in
            try database.pool.write { db in
                try db.execute(sql: """
                    INSERT INTO call_records (id, pairing_id, call_id, callee, caller, started_at, record)
                    VALUES ('broken', 'p', 'c', 'alice', 'bob', 0, '{"id": 5}')
                    """)
            }
        }) { _ in }
        #expect(value(#"sipwake_call_record_close_failures_total{reason="unreadable"}"#, in: text) == "1", "\(text)")
    }

    @Test func aRegisterExchangeIsCounted() async throws {
        let (text, _) = try await run { port in
            let socket = try RawSIPSocket(udpTo: port)
            let alice = RawDigestClient(socket: socket, user: "alice", password: "alice-secret")
            #expect(alice.registerAnsweringChallenge(contact: "<sip:alice@10.0.0.1>", password: "wrong") == 401)
            #expect(alice.registerAnsweringChallenge(contact: "<sip:alice@10.0.0.1>") == 200)
            // A retransmitted REGISTER is answered from the kept answer.
            let callID = UUID().uuidString
            socket.send(alice.register(contact: "<sip:alice@10.0.0.1>", callID: callID))
            let challenge = socket.receive().flatMap(RawDigestClient.challenge) ?? [:]
            let register = alice.register(contact: "<sip:alice@10.0.0.1>", callID: callID, cseq: 2,
                                          authorization: alice.authorization(challenge, method: "REGISTER", uri: "sip:localhost"))
            socket.send(register)
            let first = socket.receive()
            socket.send(register)
            #expect(socket.receive() == first)
            #expect(RawDigestClient.status(first) == 200)
            socket.send(socket.request(method: "MESSAGE", uri: "sip:bob@elsewhere.example"))
            #expect(RawDigestClient.status(socket.receive()) == 403, "never a relay")
        }
        #expect(value("sipwake_digest_challenges_total", in: text).flatMap(Double.init).map { $0 >= 3 } == true, "\(text)")
        #expect(value("sipwake_digest_failures_total", in: text) == "1", "\(text)")
        #expect(value(#"sipwake_register_total{result="accepted"}"#, in: text) == "2", "\(text)")
        #expect(value("sipwake_register_commit_seconds_count", in: text) == "2", "\(text)")
        #expect(value(#"sipwake_register_retransmissions_total{result="answered"}"#, in: text) == "1", "\(text)")
        #expect(value("sipwake_register_answers_kept", in: text) == "2.0", "\(text)")
        #expect(value("sipwake_relay_refused_total", in: text) == "1", "\(text)")
    }

    @Test func aRefusedCallPastTheRecordCapIsCountedNotRecorded() async throws {
        let log = LogRecorder()
        let (text, calls) = try await run(trustedPeers: ["127.0.0.1"], extraConfig: """
            [calls]
            rejected_records_per_minute = 0
            """, records: true, log: log) { port in
            let socket = try RawSIPSocket(udpTo: port)
            socket.send(socket.request(method: "INVITE", uri: "sip:nobody@localhost"))
            #expect(RawDigestClient.status(socket.receive()) == 404)
            // A call to alice, who has no device, is recorded as ever.
            socket.send(socket.request(method: "INVITE", uri: "sip:alice@localhost"))
            var statuses: [Int?] = []
            while statuses.last != 480, let answer = socket.receive() { statuses.append(RawDigestClient.status(answer)) }
            #expect(statuses.last == 480, "\(statuses)")
        }
        #expect(value("sipwake_calls_rejected_total", in: text) == "1", "\(text)")
        #expect(value("sipwake_calls_rejected_unrecorded_total", in: text) == "1", "\(text)")
        #expect(calls.map(\.outcome) == [.noDevices], "the refused call is over the cap: \(calls)")
        // Calls by outcome, the refused one included.
        #expect(value(#"sipwake_calls_ended_total{outcome="rejected"}"#, in: text) == "1", "\(text)")
        #expect(value(#"sipwake_calls_ended_total{outcome="no-devices"}"#, in: text) == "1", "\(text)")
        #expect(value(#"sipwake_calls_ended_total{outcome="answered"}"#, in: text) == "0", "\(text)")
        // One line per call that was forked, at info, with what an operator asks first.
        let ended = log.entries("call ended")
        #expect(ended.count == 1, "\(log.recordedWithMetadata)")
        #expect(ended.first?.level == .info)
        #expect(ended.first.map { ["call.callee", "call.outcome", "call.status", "call.pushes", "call.branches",
                                   "call.pairing_id", "sip.call_id"].allSatisfy($0.metadata.keys.contains) } == true,
                "\(ended)")
        #expect(ended.first?.metadata["call.outcome"] == "no-devices")
        #expect(ended.first?.metadata["call.status"] == "480")
        #expect(ended.first?.metadata["call.answer_ms"] == nil, "only an answered call has a time to answer")
    }

    /// An answered call lets go of its INVITE's server transaction while it
    /// lingers (here for a device that rang, was cancelled and never says
    /// another word: up to 32 s), so Sofia's count of server transactions
    /// drops to nothing once Timer I is over (5 s), long before the call is
    /// forgotten. The answering device's retransmitted 2xx still reaches the
    /// PBX, and the PBX's ACK still reaches the device.
    @Test func anAnsweredCallLetsGoOfItsServerTransactionWhileItLingers() async throws {
        let registry = PrometheusCollectorRegistry()
        let log = LogRecorder()
        _ = try await run(trustedPeers: ["127.0.0.2"], registry: registry, log: log) { port in
            /// Waits for the gauge to read `expected` (it is sampled every second).
            func transactions(become expected: String, within seconds: Int) -> String? {
                var seen: String?
                for _ in 0..<(seconds * 10) {
                    seen = value("sipwake_sip_server_transactions", in: registry.emitToString())
                    if seen == expected { break }
                    Thread.sleep(forTimeInterval: 0.1)
                }
                return seen
            }
            let answering = try SilentPhone(udpTo: port, instance: UUID().uuidString.lowercased())
            let ringing = try SilentPhone(udpTo: port, instance: UUID().uuidString.lowercased())
            #expect(answering.register() == 200)
            #expect(ringing.register() == 200)

            let pbx = try RawSIPSocket(udpTo: port, from: "127.0.0.2")
            let invite = pbx.request(method: "INVITE", uri: "sip:alice@localhost",
                                     extra: "Contact: <sip:pbx@127.0.0.2:\(pbx.localPort)>\r\n")
            pbx.send(invite)
            let onAnswering = try #require(answering.next(timeout: 5) { $0.method == "INVITE" })
            let onRinging = try #require(ringing.next(timeout: 5) { $0.method == "INVITE" })
            #expect(transactions(become: "1.0", within: 20) == "1.0", "the INVITE's, while the call is live")

            ringing.respond(to: onRinging, status: 180, phrase: "Ringing")
            answering.respond(to: onAnswering, status: 200, phrase: "OK", tag: "tag-a")
            func nextAnswer() -> String? {
                for _ in 0..<20 {
                    if let text = pbx.receive(timeout: 0.5), text.hasPrefix("SIP/2.0 200") { return text }
                }
                return nil
            }
            let answer = try #require(nextAnswer(), "the 2xx reaches the PBX")
            #expect(ringing.next(timeout: 5) { $0.method == "CANCEL" } != nil, "the ringing device is cancelled")

            #expect(transactions(become: "0.0", within: 20) == "0.0",
                    "the answered INVITE's transaction let go while the call lingers")

            answering.respond(to: onAnswering, status: 200, phrase: "OK", tag: "tag-a")
            let again = try #require(nextAnswer(), "a retransmitted 2xx still reaches the PBX")
            #expect(again.contains("tag=tag-a"), "\(again)")

            func values(_ text: String, _ name: String) -> [String] {
                text.components(separatedBy: "\r\n").filter { $0.lowercased().hasPrefix(name.lowercased() + ":") }
                    .map { String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces) }
            }
            let contact = try #require(values(answer, "Contact").first).trimmingCharacters(in: CharacterSet(charactersIn: "<>"))
            let ack = "ACK \(contact) SIP/2.0\r\n" +
                "Via: SIP/2.0/UDP 127.0.0.2:\(pbx.localPort);branch=z9hG4bK\(UUID().uuidString.prefix(12));rport\r\n" +
                "From: \(try #require(values(answer, "From").first))\r\n" +
                "To: \(try #require(values(answer, "To").first))\r\n" +
                "Call-ID: \(try #require(values(invite, "Call-ID").first))\r\n" +
                "CSeq: 1 ACK\r\nMax-Forwards: 70\r\n" +
                "Route: \(values(answer, "Record-Route").reversed().joined(separator: ", "))\r\n" +
                "Content-Length: 0\r\n\r\n"
            pbx.send(ack)
            #expect(answering.next(timeout: 5) { $0.method == "ACK" } != nil, "the PBX's ACK reaches the device")
        }
        let text = registry.emitToString()
        #expect(value(#"sipwake_calls_ended_total{outcome="answered"}"#, in: text) == "1", "\(text)")
        let ended = log.entries("call ended")
        #expect(ended.count == 1, "\(log.recordedWithMetadata)")
        #expect(ended.first?.metadata["call.outcome"] == "answered")
        #expect(ended.first?.metadata["call.branches"] == "2")
        #expect(ended.first?.metadata["call.answer_ms"].flatMap(Int.init).map { $0 >= 0 } == true, "\(ended)")
    }
}
