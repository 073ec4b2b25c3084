import Foundation
import Hummingbird
import Logging

/// Plays FCM HTTP v1's `POST /v1/projects/PROJECT/messages:send`: takes only
/// access tokens the sink's own OAuth endpoint issued, checks the project
/// and the message the way FCM does, then answers by the token's rule in
/// Google's error shape, or with the message's name.
struct PushSinkFCM: Sendable {
    let sink: PushSink

    func push(_ request: Request, project: String) async throws -> Response {
        let now = Date()
        var record = PushSinkRecord(receivedAt: now, provider: "fcm", method: request.method.rawValue, path: request.uri.path,
                                    headers: PushSinkRoutes.headers(of: request, dropping: ["authorization"]), body: [:],
                                    status: 200)
        let data: Data
        do {
            data = Data(buffer: try await request.body.collect(upTo: PushSink.maxBodySize))
        } catch let error as HTTPResponseError where error.status == .contentTooLarge {
            return refuse(.invalidArgument("Request payload size exceeds the limit: \(PushSink.maxBodySize) bytes."),
                          check: "body larger than \(PushSink.maxBodySize) bytes", record: &record)
        }
        guard let bearer = PushSinkRoutes.bearer(of: request) else {
            return refuse(.unauthenticated, check: "no authorization: Bearer header", record: &record)
        }
        guard sink.acceptsAccessToken(bearer) else {
            return refuse(.unauthenticated, check: "access token not issued by this sink's /token, or expired", record: &record)
        }
        if let expected = sink.settings.fcm.project, project != expected {
            return refuse(.senderIDMismatch, check: "project \(project) is not --fcm-project \(expected)", record: &record)
        }
        guard let payload = PushSinkJSON(data: data), payload.object != nil else {
            return refuse(.invalidArgument("Invalid JSON payload received."), check: "body is not a JSON object", record: &record)
        }
        record.payload = payload
        record.body = payload.fields
        guard let message = payload["message"]?.object else {
            return refuse(.invalidArgument("Invalid JSON payload received. Missing message.", field: "message"),
                          check: "no message object", record: &record)
        }
        record.token = message["token"]?.string
        if let problem = Self.problem(in: message) {
            return refuse(problem.error, check: problem.check, record: &record)
        }
        let token = record.token ?? ""
        let rule = sink.rule(forToken: token)
        record.rule = rule.description
        let answer: PushSinkJSON
        switch rule {
        case .ok, .slow:
            let id = "0:\(UInt64(now.timeIntervalSince1970 * 1_000_000))%\(UInt32.random(in: .min ... .max))"
            answer = .object(["name": .string("projects/\(project)/messages/\(id)")])
            record.status = 200
        case .gone:
            answer = PushSinkGoogleError.unregistered.json
            record.status = 404
            record.reason = PushSinkGoogleError.unregistered.reason
        case .bad:
            answer = PushSinkGoogleError.invalidToken.json
            record.status = 400
            record.reason = PushSinkGoogleError.invalidToken.reason
        case .fail(let status):
            let error = PushSinkGoogleError.failure(status: status)
            answer = error.json
            record.status = status
            record.reason = error.reason
        }
        var answerHeaders: [String: String] = [:]
        if let seconds = sink.settings.retryAfter, record.status == 429 || record.status == 503 {
            answerHeaders["retry-after"] = String(seconds)
            record.answerHeaders = answerHeaders
        }
        record.answer = answer
        sink.add(record)
        sink.logger.debug("push sink received a push", metadata: [
            "push.provider": "fcm", "push.token": "\(token)", "sink.rule": "\(rule)", "http.status": .stringConvertible(record.status),
        ])
        try await sink.wait(for: rule)
        return PushSinkRoutes.json(status: record.status, answer, headers: answerHeaders)
    }

    private func refuse(_ error: PushSinkGoogleError, check: String, record: inout PushSinkRecord) -> Response {
        record.status = error.code
        record.reason = error.reason
        record.error = check
        record.answer = error.json
        sink.add(record)
        sink.logger.debug("push sink refused a push", metadata: [
            "push.provider": "fcm", "push.token": "\(record.token ?? "")", "http.status": .stringConvertible(error.code),
            "push.reason": "\(error.reason)", "push.check": "\(check)",
        ])
        return PushSinkRoutes.json(status: error.code, error.json)
    }

    /// What FCM would refuse in `message`: no token, data values that are not
    /// strings, an Android priority or TTL it cannot read.
    static func problem(in message: [String: PushSinkJSON]) -> (error: PushSinkGoogleError, check: String)? {
        guard let token = message["token"]?.string, !token.isEmpty else {
            return (.invalidArgument("Recipient of the message is not set.", field: "message.token"), "no message.token")
        }
        if let data = message["data"] {
            guard let members = data.object else {
                return (.invalidArgument("Invalid value at 'message.data' (type.googleapis.com/google.firebase.fcm.v1.Message.DataEntry), \(data.text)",
                                         field: "message.data"), "message.data is not an object")
            }
            for (index, key) in members.keys.sorted().enumerated() where members[key]?.string == nil {
                let field = "message.data[\(index)].value"
                return (.invalidArgument("Invalid value at '\(field)' (TYPE_STRING), \(members[key]?.text ?? "null")", field: field),
                        "message.data.\(key) is not a string")
            }
        }
        if let android = message["android"] {
            guard let members = android.object else {
                return (.invalidArgument("Invalid value at 'message.android', \(android.text)", field: "message.android"),
                        "message.android is not an object")
            }
            if let priority = members["priority"], !["high", "HIGH", "normal", "NORMAL"].contains(priority.string ?? "") {
                let field = "message.android.priority"
                return (.invalidArgument("Invalid value at '\(field)' (type.googleapis.com/google.firebase.fcm.v1.AndroidMessagePriority), \(priority.text)",
                                         field: field), "message.android.priority is not high or normal")
            }
            if let ttl = members["ttl"], !isDuration(ttl.string ?? "") {
                let field = "message.android.ttl"
                return (.invalidArgument("Invalid value at '\(field)' (type.googleapis.com/google.protobuf.Duration), \(ttl.text)",
                                         field: field), "message.android.ttl is not a duration such as \"30s\"")
            }
        }
        return nil
    }

    /// A protobuf JSON duration: seconds, up to nine decimals, then `s`.
    static func isDuration(_ text: String) -> Bool {
        guard text.hasSuffix("s") else { return false }
        let number = text.dropLast().split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = number.first, !whole.isEmpty, whole.allSatisfy({ $0.isASCII && $0.isNumber }) else { return false }
        guard number.count == 2 else { return true }
        return (1...9).contains(number[1].count) && number[1].allSatisfy { $0.isASCII && $0.isNumber }
    }
}
