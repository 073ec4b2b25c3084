import CSofiaSIP
import Foundation
import Model
import SIPCore
import XCTest

/// An actor on a SIP loop that answers every request with a fixed status:
/// proves that Sofia callbacks, the loop executor and actor isolation fit.
actor EchoServer: SIPRequestHandler {
    nonisolated let loop: SIPLoop
    nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }
    private var agent: SIPAgent?
    private(set) var sources: [BindingSource] = []

    init(loop: SIPLoop) { self.loop = loop }

    func start(port: Int) throws {
        agent = try SIPAgent(
            loop: loop,
            listeners: [SIPListener(transport: .udp, host: "127.0.0.1", port: port),
                        SIPListener(transport: .tcp, host: "127.0.0.1", port: port)],
            options: SIPAgentOptions(maxMessageSize: 4096)            , handler: self
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

final class SIPCoreLoopTests: XCTestCase {
    func testOptionsOverUDPAndTCPReachAnActorOnTheLoop() async throws {
        let port = try TestPorts.free()
        let serverLoop = SIPLoop(name: "echo")
        try serverLoop.start()
        let server = EchoServer(loop: serverLoop)
        try await server.start(port: port)

        let ua = SofiaTestUA(proxy: "sip:127.0.0.1:\(port);transport=udp")
        try ua.loop.start()
        try await ua.start()

        for transport in ["udp", "tcp"] {
            let response = await ua.send(method: "OPTIONS", uri: "sip:127.0.0.1:\(port)",
                                         from: "<sip:probe@localhost>;tag=1", to: "<sip:127.0.0.1>",
                                         callID: UUID().uuidString, cseq: 1, transport: transport)
            XCTAssertEqual(response.status, 200, transport)
            XCTAssertEqual(response.header("X-Echo-Method"), "OPTIONS")
        }
        let sources = await server.sources
        XCTAssertEqual(sources.map(\.transport), [.udp, .tcp])
        XCTAssertEqual(sources.map(\.host), ["127.0.0.1", "127.0.0.1"])
        XCTAssertNil(sources[0].connectionID)
        XCTAssertNotNil(sources[1].connectionID)

        await ua.stop()
        await server.stop()
    }

    func testBindingAnAddressInUseFailsWithItsName() async throws {
        let port = try TestPorts.free()
        let loopA = SIPLoop(name: "a")
        try loopA.start()
        let a = EchoServer(loop: loopA)
        try await a.start(port: port)
        let loopB = SIPLoop(name: "b")
        try loopB.start()
        let b = EchoServer(loop: loopB)
        do {
            try await b.start(port: port)
            XCTFail("second bind to the same port should fail")
        } catch let error as SIPCoreError {
            XCTAssertTrue(error.description.contains("127.0.0.1:\(port)"), error.description)
        }
        await a.stop()
        await b.stop()
    }
}
