import API
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Metrics
import SQLiteStorage
import XCTest

final class HealthTests: XCTestCase {
    func testHealthAnswersOverRealHTTP() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("api-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let database = try SipwakeDatabase(path: dir.appendingPathComponent("db.sqlite").path)
        let router = APIRouter.make(stores: database.stores,
                                    settings: APISettings(realm: "localhost", adminToken: "t", nonceSecret: [1, 2, 3]),
                                    logger: Logger(label: "test"), metrics: NOOPMetricsHandler.instance)
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            try await client.execute(uri: "/health", method: .get) { response in
                XCTAssertEqual(response.status, .ok)
                XCTAssertEqual(String(buffer: response.body), "ok\n")
            }
        }
    }
}
