import CSofiaSIP
import Model
import SIPCore

/// An actor on a SIP loop that answers every request with a fixed status:
/// proves that Sofia callbacks, the loop executor and actor isolation fit.
actor EchoServer: SIPRequestHandler {
    nonisolated let loop: SIPLoop
    nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }
    private var agent: SIPAgent?
    private(set) var sources: [BindingSource] = []

    init(loop: SIPLoop) { self.loop = loop }

    /// A server on a loop of its own, the loop running; not listening yet.
    static func onOwnLoop(named name: String) throws -> EchoServer {
        let loop = SIPLoop(name: name)
        try loop.start()
        return EchoServer(loop: loop)
    }

    func start(port: Int) throws {
        agent = try SIPAgent(
            loop: loop,
            listeners: [SIPListener(transport: .udp, host: "127.0.0.1", port: port),
                        SIPListener(transport: .tcp, host: "127.0.0.1", port: port)],
            options: SIPAgentOptions(maxMessageSize: 4096), handler: self
        )
    }

    func handle(_ request: IncomingRequest) {
        sources.append(request.source)
        let tags = SofiaTagList().header("X-Echo-Method", request.message.method ?? "?")
        request.reply(200, "OK", tags: tags)
    }

    func stop() {
        agent?.close()
        agent = nil
        loop.stop()
    }
}
