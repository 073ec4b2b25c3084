import Foundation
import Hummingbird
import HummingbirdTesting
import Prometheus
import Testing

/// `GET /metrics` serves the counters in Prometheus' text format, behind the
/// admin bearer token; a wrong token is itself counted.
@Suite struct AdminMetricsTests {
    @Test func theMetricsAreServedBehindTheAdminToken() async throws {
        let registry = PrometheusCollectorRegistry()
        try await AdminTests.withApp(registry: registry) { client, _ in
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(response.status == .unauthorized)
            }
            try await client.execute(uri: "/metrics", method: .get,
                                     headers: [.authorization: "Bearer not-the-token"]) { response in
                #expect(response.status == .unauthorized)
            }
            try await client.execute(uri: "/metrics", method: .get, headers: AdminTests.headers()) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
                let text = String(buffer: response.body)
                #expect(text.contains(#"sipwake_http_login_failures_total{api="admin"} 1"#), "\(text)")
            }
        }
    }

    @Test func withoutAnExpositionThereIsNoMetricsRoute() async throws {
        try await AdminTests.withApp(exposition: false) { client, _ in
            try await client.execute(uri: "/metrics", method: .get, headers: AdminTests.headers()) { response in
                #expect(response.status == .notFound)
            }
        }
    }
}
