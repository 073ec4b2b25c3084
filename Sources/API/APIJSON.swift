import Foundation
import Hummingbird
import Model
import Registrar

/// JSON in and out of the HTTP API (admin and reporters): response bodies (stable key order,
/// ISO 8601 UTC times, explicit nulls) and request decoding whose errors name
/// the field at fault.
enum APIJSON {
    static let contentType = "application/json"

    static func response(_ status: HTTPResponse.Status, _ value: some Encodable, headers: HTTPFields = [:]) -> Response {
        let encoder = JSONStyle.encoder()
        // Only strings, numbers, booleans and nulls are ever encoded: nothing fails.
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        var fields = headers
        fields[.contentType] = contentType
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
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
