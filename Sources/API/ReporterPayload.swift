import Foundation
import Hummingbird

/// Reads the name/value pairs of a reporter call: the query string, then for
/// a POST the body, form-urlencoded or a JSON object of strings.
enum ReporterPayload {
    /// - Throws: `APIError` 413 (body over `maxBodySize`), 415 (another
    ///   content type), 400 (malformed form data or JSON).
    static func pairs(of request: Request, maxBodySize: Int) async throws -> [(name: String, value: String)] {
        var pairs = try request.uri.query.map { try ReporterFormDecoder.decode(Substring($0)) } ?? []
        guard request.method == .post else { return pairs }

        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > maxBodySize {
            throw tooLarge(maxBodySize)
        }
        var request = request
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: maxBodySize)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw tooLarge(maxBodySize)
        }
        let body = Array(buffer.readableBytesView)

        let mediaType = request.headers[.contentType]
            .map { $0.split(separator: ";", maxSplits: 1)[0].trimmingCharacters(in: .whitespaces).lowercased() }
        switch mediaType {
        case "application/x-www-form-urlencoded":
            guard let text = String(validating: body, as: UTF8.self) else {
                throw APIError(.badRequest, "malformed form data: not UTF-8")
            }
            pairs += try ReporterFormDecoder.decode(Substring(text))
        case "application/json":
            pairs += try json(body)
        case nil where body.isEmpty:
            break
        default:
            throw APIError(.unsupportedMediaType,
                           "unsupported content type: use application/x-www-form-urlencoded or application/json")
        }
        return pairs
    }

    /// A JSON object whose values are strings (null counts as absent).
    private static func json(_ body: [UInt8]) throws -> [(name: String, value: String)] {
        let object: [String: String?]
        do {
            object = try JSONDecoder().decode([String: String?].self, from: Data(body))
        } catch {
            throw APIError(.badRequest, "malformed JSON: expected an object whose values are strings")
        }
        return object.compactMap { name, value in value.map { (name, $0) } }
    }

    private static func tooLarge(_ maxBodySize: Int) -> APIError {
        APIError(.contentTooLarge, "request body larger than \(maxBodySize) bytes")
    }
}
