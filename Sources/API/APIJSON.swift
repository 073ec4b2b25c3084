import Foundation
import Hummingbird
import Model
import Ports
import Registrar

/// JSON in and out of the HTTP API (admin and reporters): response bodies (stable key order,
/// ISO 8601 UTC times, explicit nulls) and request decoding whose errors name
/// the field at fault.
enum APIJSON {
    static let contentType = "application/json"

    static func response(_ status: HTTPResponse.Status, _ object: Any, headers: HTTPFields = [:]) -> Response {
        // Only dictionaries, arrays, strings, numbers and NSNull are ever passed in.
        let data = (try? JSONSerialization.data(
            withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        var fields = headers
        fields[.contentType] = contentType
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// `2026-11-22T01:06:13Z`: a Sendable value, so one is shared.
    private static let iso8601 = Date.ISO8601FormatStyle(timeZone: .gmt)

    static func timestamp(_ date: Date) -> String {
        date.formatted(iso8601)
    }

    /// A tuple: every field, nulls explicit.
    static func tuple(_ t: DeviceTuple) -> [String: Any] {
        [
            "id": Int(t.id), "username": t.username, "selector": t.selector,
            "app_id_calls": t.appIDCalls ?? NSNull(), "token_calls": t.tokenCalls ?? NSNull(),
            "app_id_other": t.appIDOther ?? NSNull(), "token_other": t.tokenOther ?? NSNull(),
            "platform": t.platform?.rawValue ?? NSNull(), "provider": t.provider,
            "created_at": timestamp(t.createdAt), "last_seen_at": timestamp(t.lastSeenAt),
            "last_push_at": t.lastPushAt.map(timestamp) ?? NSNull(),
            "last_push_status": t.lastPushStatus ?? NSNull(),
            "last_push_result": t.lastPushResult ?? NSNull(),
        ]
    }

    /// A binding, with the fields of `sipwake registrations list --json` (nulls explicit).
    static func registration(_ b: Binding, now: Date) -> [String: Any] {
        [
            "aor": b.aor, "contact": b.contact, "expires_in": b.remainingSeconds(at: now),
            "expires_at": timestamp(b.expiresAt),
            "transport": b.source.transport.rawValue, "source": "\(b.source.host):\(b.source.port)",
            "instance": b.instanceID ?? NSNull(), "reg_id": b.regID ?? NSNull(),
            "q": b.q.map { Double($0) / 1000 } ?? NSNull(),
            "path": b.path, "user_agent": b.userAgent ?? NSNull(),
            "call_id": b.callID, "cseq": Int(b.cseq),
            "registered_at": timestamp(b.registeredAt), "updated_at": timestamp(b.updatedAt),
        ]
    }

    /// Decodes a request body; every failure is a 400 naming the problem.
    static func decode<T: Decodable>(_ type: T.Type, from buffer: ByteBuffer) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(buffer.readableBytesView))
        } catch let error as DecodingError {
            throw refusal(error)
        }
    }

    private static func refusal(_ error: DecodingError) -> AdminError {
        switch error {
        case .keyNotFound(let key, let context):
            let field = (context.codingPath + [key]).first?.stringValue ?? key.stringValue
            return .badRequest("missing \(field)", field: field)
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            guard let field = context.codingPath.first?.stringValue else {
                return .badRequest("invalid JSON: the body must be a JSON object")
            }
            return .badRequest("invalid \(field): wrong type or null", field: field)
        case .dataCorrupted(let context):
            guard let field = context.codingPath.first?.stringValue else {
                return .badRequest("invalid JSON: the body does not parse")
            }
            return .badRequest("invalid \(field): unreadable value", field: field)
        @unknown default:
            return .badRequest("invalid JSON")
        }
    }
}
