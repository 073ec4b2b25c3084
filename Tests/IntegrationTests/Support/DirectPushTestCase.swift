import XCTest

/// An integration test with the push sink playing APNs and FCM
/// (``DirectPushLab``): skipped without openssl, and every lab it started
/// stopped after the servers.
class DirectPushTestCase: IntegrationTestCase {
    private var labs: [DirectPushLab] = []

    override func setUp() async throws {
        try await super.setUp()
        try XCTSkipUnless(TestCertificate.opensslInstalled, "openssl not installed")
    }

    override func tearDown() async throws {
        // The servers first: the sink's graceful shutdown waits for their
        // HTTP/2 connections to close.
        try await super.tearDown()
        for lab in labs { await lab.stop() }
        labs.removeAll()
    }

    /// A started lab, stopped at the end of the test.
    func startPushLab(expireProviderTokens: Int = 0) async throws -> DirectPushLab {
        let push = try await DirectPushLab.start(expireProviderTokens: expireProviderTokens)
        labs.append(push)
        return push
    }
}
