import Foundation
import Hummingbird
import Logging
import NIOCore

/// The push sink's HTTP endpoints: the Acrobits send path (and anything
/// under `/pnm2/`) by `POST`, `PUT` or `PATCH`; APNs' `POST /3/device/TOKEN`;
/// FCM's `POST /v1/projects/PROJECT/messages:send`; Google's `POST /token`;
/// a customer backend's `POST /webhook`;
/// `GET`/`DELETE /records`; `GET`/`POST /rules`.
struct PushSinkRoutes: Sendable {
    /// The methods a push may come with: gateways take `POST`, some providers `PUT` or `PATCH`.
    static let pushMethods: [HTTPRequest.Method] = [.post, .put, .patch]

    let sink: PushSink
    let apns: PushSinkAPNs
    let fcm: PushSinkFCM
    let oauth: PushSinkOAuth
    let webhook: PushSinkWebhook

    init(sink: PushSink, apnsVerifier: PushSinkJWTVerifier?, googleVerifier: PushSinkJWTVerifier?) {
        self.sink = sink
        apns = PushSinkAPNs(sink: sink, verifier: apnsVerifier)
        fcm = PushSinkFCM(sink: sink)
        oauth = PushSinkOAuth(sink: sink, verifier: googleVerifier)
        webhook = PushSinkWebhook(sink: sink)
    }

    func register(on router: Router<BasicRequestContext>) {
        router.post("/3/device/:token") { request, context in
            try await apns.push(request, token: context.parameters.get("token") ?? "")
        }
        // "messages:send" is one path segment; the router matches it as a parameter.
        router.post("/v1/projects/:project/:action") { request, context in
            guard context.parameters.get("action") == "messages:send" else {
                return PushSinkGoogleError.notFound(path: request.uri.path)
            }
            return try await fcm.push(request, project: context.parameters.get("project") ?? "")
        }
        router.post("/token") { request, _ in try await oauth.grant(request) }
        router.post(RouterPath(sink.settings.webhook.path)) { request, _ in try await webhook.receive(request) }
        for method in Self.pushMethods {
            router.on("/pnm2/**", method: method) { request, _ in try await self.push(request) }
            if !sink.settings.path.hasPrefix("/pnm2/") {
                router.on(RouterPath(sink.settings.path), method: method) { request, _ in try await self.push(request) }
            }
        }
        router.get("/records") { _, _ in
            let data = try PushSinkRecord.jsonEncoder().encode(sink.records())
            return Self.json(status: 200, data: data)
        }
        router.delete("/records") { _, _ in
            sink.clearRecords()
            return Self.json(status: 200, ["status": "ok"])
        }
        router.get("/rules") { _, _ in
            let rules = sink.rulesDescription()
            let object: [String: Any] = ["default": rules.defaultRule, "tokens": rules.tokens]
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            return Self.json(status: 200, data: data)
        }
        router.post("/rules") { request, _ in try await self.setRule(request) }
    }

    private func push(_ request: Request) async throws -> Response {
        let receivedAt = Date()
        let method = request.method.rawValue
        let path = request.uri.path
        let headers = Self.headers(of: request)
        let data: Data
        do {
            data = Data(buffer: try await request.body.collect(upTo: PushSink.maxBodySize))
        } catch let error as HTTPResponseError where error.status == .contentTooLarge {
            // Recorded like any other push, so a lab sees what the gateway refused.
            sink.add(PushSinkRecord(receivedAt: receivedAt, method: method, path: path, headers: headers, body: [:], status: 413,
                                    error: "body larger than \(PushSink.maxBodySize) bytes"))
            return Self.json(status: 413, ["status": "error", "code": "TooLarge", "message": "body too large"])
        }
        guard let fields = PushSinkBody.fields(of: data) else {
            sink.add(PushSinkRecord(receivedAt: receivedAt, method: method, path: path, headers: headers, body: [:], status: 400,
                                    error: "body is not a JSON object"))
            sink.logger.debug("push sink refused a push", metadata: ["http.path": "\(path)"])
            return Self.json(status: 400, ["status": "error", "code": "BadRequest", "message": "body is not a JSON object"])
        }
        let token = fields["DeviceToken"] ?? ""
        let rule = sink.rule(forToken: token)
        sink.add(PushSinkRecord(receivedAt: receivedAt, token: fields["DeviceToken"], method: method, path: path,
                                headers: headers, body: fields, status: rule.status))
        sink.logger.debug("push sink received a push", metadata: [
            "push.provider": "acrobits", "http.path": "\(path)", "push.verb": "\(fields["verb"] ?? "")",
            "push.token": "\(token)", "sink.rule": "\(rule)",
        ])
        try await sink.wait(for: rule)
        return Self.json(status: rule.status, rule.answer)
    }

    private func setRule(_ request: Request) async throws -> Response {
        let data = Data(buffer: try await request.body.collect(upTo: PushSink.maxBodySize))
        guard let fields = PushSinkBody.fields(of: data), let text = fields["rule"] else {
            return Self.json(status: 400, ["status": "error", "code": "BadRequest",
                                           "message": #"expected {"token": "...", "rule": "..."}"#])
        }
        guard let rule = PushSinkRule(text) else {
            return Self.json(status: 400, ["status": "error", "code": "BadRule",
                                           "message": "rule must be ok, gone, bad, fail, fail:STATUS or slow:MILLISECONDS"])
        }
        // `token` must be a JSON string naming a token ("null" is not one);
        // without it the rule is the default.
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        if let raw = object?["token"] {
            guard let token = raw as? String, !token.isEmpty,
                  !token.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                return Self.json(status: 400, ["status": "error", "code": "BadToken",
                                               "message": "token must be a non-empty string"])
            }
            sink.setRule(rule, forToken: token)
        } else {
            sink.setDefaultRule(rule)
        }
        sink.logger.info("push sink rule changed", metadata: ["push.token": "\(fields["token"] ?? "*")", "sink.rule": "\(rule)"])
        var answer = ["status": "ok", "rule": rule.description]
        answer["token"] = fields["token"]
        return Self.json(status: 200, answer)
    }

    /// The request's header lines by lowercased name, a repeated header's
    /// values joined with `, `, leaving out `dropping`.
    static func headers(of request: Request, dropping: Set<String> = []) -> [String: String] {
        var headers: [String: String] = [:]
        for field in request.headers where !dropping.contains(field.name.canonicalName) {
            let name = field.name.canonicalName
            headers[name] = headers[name].map { "\($0), \(field.value)" } ?? field.value
        }
        return headers
    }

    /// The bearer token of the `authorization` header (scheme in any case), nil without one.
    static func bearer(of request: Request) -> String? {
        guard let value = request.headers[.authorization] else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }

    static func json(status: Int, _ object: [String: String]) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return json(status: status, data: (try? encoder.encode(object)) ?? Data("{}".utf8))
    }

    static func json(status: Int, data: Data, headers extra: [String: String] = [:]) -> Response {
        var headers: HTTPFields = [.contentType: "application/json"]
        for (name, value) in extra.sorted(by: { $0.key < $1.key }) {
            if let field = HTTPFields.Element.Name(name) { headers[field] = value }
        }
        return Response(status: .init(code: status), headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func json(status: Int, _ value: PushSinkJSON, headers: [String: String] = [:]) -> Response {
        json(status: status, data: Data(value.text.utf8), headers: headers)
    }
}
