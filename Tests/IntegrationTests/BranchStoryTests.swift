import Foundation
import XCTest

/// What a call's story says about branches that never reached a device.
final class BranchStoryTests: IntegrationTestCase {
    func testABranchSipwakeEndedItselfSaysWhyInTheStory() async throws {
        let server = try await startServer(config: """
            [auth]
            trusted_peers = ["127.0.0.2"]
            [push]
            enabled = false
            """)
        // A phone registers over TCP, then its connection goes (the app was killed).
        do {
            let socket = try RawSIPSocket(tcpTo: server.port)
            let client = RawDigestClient(socket: socket, user: "alice", password: "alice-secret")
            XCTAssertEqual(client.registerAnsweringChallenge(contact: "<sip:alice@127.0.0.1:9;transport=tcp>"), 200)
        }
        try await Task.sleep(for: .milliseconds(300))

        let pbx = try await startPhone("pbx", host: "127.0.0.2")
        let outgoing = await pbx.invite("sip:alice@localhost", via: server.proxy("udp"),
                                        headers: [("X-Push-ID", "pair-unreachable")], media: "audio")
        let final = await pbx.waitForResponse(outgoing, atLeast: 200, timeout: .seconds(40))
        XCTAssertNotNil(final)

        let story = try await server.endedCallRecord("pair-unreachable")
        let branch = try XCTUnwrap((story["branches"] as? [[String: Any]])?.first, "\(story)")
        let status = try XCTUnwrap(branch["final_status"] as? Int, "\(branch)")
        XCTAssertTrue([408, 503].contains(status), "\(branch)")
        let reason = try XCTUnwrap(branch["final_reason"] as? String, "sipwake's own final says why: \(branch)")
        XCTAssertFalse(reason.isEmpty)

        let text = try server.cli(["calls", "show", "pair-unreachable"]).stdout
        XCTAssertTrue(text.contains("(sipwake)"), text)
        XCTAssertTrue(text.contains("branch 1: \(status) \(reason)"), text)
    }
}
