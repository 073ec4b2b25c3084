import Foundation
import Hummingbird
import Logging
import Synchronization

/// A plain-HTTP server on loopback for a test: it records every request
/// (method, path, headers, body) and answers with what the test's handler
/// says, to stand in for Google's OAuth endpoint, APNs or FCM.
final class LabHTTPServer: Sendable {
    struct Recorded: Sendable {
        var method: String
        var path: String
        var headers: [String: String]
        var body: Data
    }

    struct Reply: Sendable {
        var status: Int
        var headers: [(String, String)] = []
        var body: String
    }

    private let handler: @Sendable (Recorded) -> Reply
    private let state = Mutex<(records: [Recorded], port: Int?)>(([], nil))
    private let task = Mutex<Task<Void, any Error>?>(nil)

    init(_ handler: @escaping @Sendable (Recorded) -> Reply) {
        self.handler = handler
    }

    var records: [Recorded] { state.withLock { $0.records } }

    /// Starts listening; returns the base URL (`http://127.0.0.1:PORT`).
    func start() async throws -> String {
        let router = Router()
        router.on("**", method: .post) { request, _ in try await self.answer(request) }
        router.on("**", method: .get) { request, _ in try await self.answer(request) }
        let ports = AsyncStream<Int>.makeStream()
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                              onServerRunning: { channel in
                                  ports.continuation.yield(channel.localAddress?.port ?? 0)
                                  ports.continuation.finish()
                              }, logger: Logger(label: "lab-http"))
        task.withLock { $0 = Task { try await app.runService() } }
        var iterator = ports.stream.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else { throw CancellationError() }
        return "http://127.0.0.1:\(port)"
    }

    func stop() async {
        let running = task.withLock { $0 }
        running?.cancel()
        _ = try? await running?.value
    }

    private func answer(_ request: Request) async throws -> Response {
        let buffer = try await request.body.collect(upTo: 1024 * 1024)
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.canonicalName] = field.value }
        let recorded = Recorded(method: request.method.rawValue, path: request.uri.path, headers: headers,
                                body: Data(buffer.readableBytesView))
        state.withLock { $0.records.append(recorded) }
        let reply = handler(recorded)
        var fields = HTTPFields()
        fields[.contentType] = "application/json"
        // The tests give valid header names.
        for (name, value) in reply.headers { fields[.init(name)!] = value }
        return Response(status: .init(code: reply.status), headers: fields,
                        body: ResponseBody(byteBuffer: ByteBuffer(string: reply.body)))
    }
}
