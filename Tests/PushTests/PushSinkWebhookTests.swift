import Foundation
import Push
import PushSink
import Testing

/// The sink playing a customer's backend: it takes only what sipwake
/// signed, and any header a client makes up gets an answer, never a crash.
@Suite struct PushSinkWebhookTests {
    static let secret = "sink-webhook-secret-0123456789abcdef0123"
    static let body = #"{"type":"call.mobile_push_wakeup","data":{"user_id":"alice"}}"#

    @Test func onlyAFreshSignatureBySipwakeIsTaken() async throws {
        let (_, service, port) = try await PushFixtures.startSink(
            PushSinkSettings(port: 0, webhook: PushSinkWebhookSettings(secrets: [Self.secret])))
        do {
            let now = Int(Date().timeIntervalSince1970)
            let good = WebhookSignature.header(body: Data(Self.body.utf8), timestamp: now, secrets: [Self.secret])
            let signed = try await SinkHTTP.request("POST", port: port, path: "/webhook", body: Self.body,
                                                    headers: ["X-Sipwake-Signature": good])
            #expect(signed.status == 200)
            let other = WebhookSignature.header(body: Data(Self.body.utf8), timestamp: now, secrets: [String(Self.secret.reversed())])
            for header in [nil, "", "t=", "v1=zz", "t=\(now)", other,
                           "t=-9223372036854775808,v1=00", "t=9223372036854775807,v1=00",
                           "t=\(now - 3600),v1=" + String(repeating: "0", count: 64)] {
                let answer = try await SinkHTTP.request("POST", port: port, path: "/webhook", body: Self.body,
                                                        headers: header.map { ["X-Sipwake-Signature": $0] } ?? [:])
                #expect(answer.status == 401, "\(header ?? "no header")")
            }
        } catch {
            try? await service.stop()
            throw error
        }
        try await service.stop()
    }
}
