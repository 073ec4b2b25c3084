import SIPAttackSupport

/// Sends inputs over their transport and reads what comes back, counting
/// both: one UDP socket, and a pool of connections per stream transport.
struct InputSender {
    let configuration: FuzzConfiguration
    private let udp: UDPSocket?
    private let tlsContext: TLSClientContext?
    private var pools: [FuzzTransport: StreamPool] = [:]
    private(set) var counts: [FuzzTransport: TransportCounts] = [:]
    /// How long a connect, handshake or write may take.
    static let streamTimeout = 2.0

    init(configuration: FuzzConfiguration) throws {
        self.configuration = configuration
        udp = configuration.transports.contains(.udp) ? try UDPSocket(source: configuration.source, target: configuration.target) : nil
        udp?.enlargeReceiveBuffer(4 << 20)
        tlsContext = configuration.transports.contains(.tls) ? try TLSClientContext() : nil
        for transport in configuration.transports {
            counts[transport] = TransportCounts()
            if transport.isStream { pools[transport] = StreamPool(limit: FuzzInputGenerator.connectionsPerTransport) }
        }
    }

    /// Sends one input; false when it could not be (no connection).
    @discardableResult
    mutating func send(_ input: FuzzInput) -> Bool {
        let transport = input.transport
        var count = counts[transport] ?? TransportCounts()
        defer { counts[transport] = count }
        if transport == .udp {
            guard let udp else { return false }
            count.inputs += 1
            count.bytesSent += input.bytes.count
            if udp.send(input.bytes) != 0 { count.writeFailures += 1 }
            return true
        }
        guard let pool = pools[transport], let id = input.connection else { return false }
        let stream: ByteStream
        if let open = pool.stream(id) {
            stream = open
        } else {
            do {
                stream = try open(transport)
            } catch {
                count.connectFailures += 1
                return false
            }
            count.connections += 1
            pool.add(id, stream)
        }
        count.inputs += 1
        count.bytesSent += input.bytes.count
        if !stream.write(input.bytes) {
            count.writeFailures += 1
            pool.remove(id)
        }
        return true
    }

    func open(_ transport: FuzzTransport) throws -> ByteStream {
        let c = configuration
        switch transport {
        case .tcp:
            return try TCPStream(source: c.source, target: c.target, timeout: Self.streamTimeout)
        case .tls:
            guard let tlsContext, let tlsTarget = c.tlsTarget else { throw FuzzError.tlsPortMissing }
            return try TLSStream(context: tlsContext, source: c.source, target: tlsTarget, timeout: Self.streamTimeout)
        case .udp:
            throw FuzzError.badSetting("udp has no connections")
        }
    }

    /// Reads, without waiting, whatever the server sent back.
    mutating func drain() {
        if let udp {
            var count = counts[.udp] ?? TransportCounts()
            while case .datagram(let bytes) = udp.receive(timeout: 0) {
                count.bytesReceived += bytes.count
                count.responses += ResponseCounter.count(bytes)
            }
            counts[.udp] = count
        }
        for (transport, pool) in pools {
            var count = counts[transport] ?? TransportCounts()
            pool.drain(into: &count)
            counts[transport] = count
        }
    }
}
