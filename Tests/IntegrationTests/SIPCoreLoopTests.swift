import CSofiaSIP
import Foundation
import Model
import SIPCore
import XCTest

final class SIPCoreLoopTests: XCTestCase {
    func testOptionsOverUDPAndTCPReachAnActorOnTheLoop() async throws {
        let port = try TestPorts.free()
        let server = try EchoServer.onOwnLoop(named: "echo")
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
        let a = try EchoServer.onOwnLoop(named: "a")
        try await a.start(port: port)
        let b = try EchoServer.onOwnLoop(named: "b")
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
