import SIPAttackSupport

/// Sends saved inputs again, in order, each over its transport (files that
/// name the same connection share one), collects the answers, then probes
/// the server.
public struct FuzzReplayer {
    public let target: LoopbackEndpoint
    public let tlsTarget: LoopbackEndpoint?
    public let source: LoopbackEndpoint
    public let probeSource: LoopbackEndpoint
    public let process: TargetProcess?
    /// How long to wait for answers after each file.
    public var answerWait: Double

    public init(target: LoopbackEndpoint, tlsTarget: LoopbackEndpoint? = nil, source: LoopbackEndpoint? = nil,
                probeSource: LoopbackEndpoint? = nil, pid: Int32? = nil, answerWait: Double = 0.5) throws {
        self.target = target
        self.tlsTarget = tlsTarget
        self.source = try source ?? .address(SeedCorpus.sourceHost)
        self.probeSource = try probeSource ?? .address("127.0.0.1")
        process = pid.map(TargetProcess.init)
        self.answerWait = answerWait
    }

    public func replay(_ files: [ReplayFile]) throws -> ReplayReport {
        if files.contains(where: { $0.transport == .tls }) && tlsTarget == nil { throw FuzzError.tlsPortMissing }
        let tlsContext = files.contains(where: { $0.transport == .tls }) ? try TLSClientContext() : nil
        var report = ReplayReport()
        var streams: [String: ByteStream] = [:]
        for file in files {
            var entry = ReplayEntry(name: file.name, transport: file.transport, bytes: file.bytes.count)
            var answers: [UInt8] = []
            switch file.transport {
            case .udp:
                let socket = try UDPSocket(source: source, target: target)
                socket.send(file.bytes)
                let deadline = MonotonicClock.now() + answerWait
                while case .datagram(let bytes) = socket.receive(timeout: max(0, deadline - MonotonicClock.now())) {
                    answers += bytes
                }
            case .tcp, .tls:
                let key = file.connection.map { "\(file.transport.rawValue)-\($0)" } ?? "\(file.transport.rawValue)-\(file.name)"
                var stream = streams[key]
                if stream == nil {
                    stream = try? open(file.transport, tlsContext: tlsContext)
                    streams[key] = stream
                }
                guard let stream, stream.write(file.bytes) else {
                    entry.sendFailed = true
                    streams[key] = nil
                    report.entries.append(entry)
                    continue
                }
                let deadline = MonotonicClock.now() + answerWait
                while MonotonicClock.now() < deadline {
                    let drained = stream.drain(timeout: max(0, deadline - MonotonicClock.now()))
                    answers += drained.bytes
                    if drained.closed {
                        entry.closedByServer = true
                        streams[key] = nil
                        break
                    }
                }
                if file.connection == nil { streams[key] = nil }
            }
            entry.responses = Self.statusLines(answers)
            report.entries.append(entry)
        }
        streams.removeAll()
        report.probeLatency = probe()
        report.processAlive = process?.isAlive
        return report
    }

    /// One OPTIONS over UDP: its latency, or nil after 2 s.
    public func probe() -> Double? {
        OptionsProbe.once(source: probeSource, target: target)
    }

    func open(_ transport: FuzzTransport, tlsContext: TLSClientContext?) throws -> ByteStream {
        switch transport {
        case .tls:
            guard let tlsContext, let tlsTarget else { throw FuzzError.tlsPortMissing }
            return try TLSStream(context: tlsContext, source: source, target: tlsTarget)
        default:
            return try TCPStream(source: source, target: target)
        }
    }

    /// "SIP/2.0 200 OK" lines in what came back.
    static func statusLines(_ bytes: [UInt8]) -> [String] {
        RawSIPMessage(bytes).text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .filter { $0.hasPrefix("SIP/2.0 ") }
            .map { String($0.prefix { $0 != "\r" }) }
    }
}
