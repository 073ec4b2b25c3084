import Foundation
import Hummingbird

/// Reads a JSON request body of the admin API: `application/json` only (415
/// otherwise), at most `maxBodySize` bytes (413 otherwise).
struct AdminBodyReader: Sendable {
    let maxBodySize: Int

    func read(_ request: Request) async throws -> ByteBuffer {
        let mediaType = request.headers[.contentType]?
            .split(separator: ";", maxSplits: 1).first?
            .trimmingCharacters(in: .whitespaces).lowercased()
        guard mediaType == APIJSON.contentType else {
            throw AdminError(.unsupportedMediaType, "the body must be application/json", field: "Content-Type")
        }
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > maxBodySize {
            throw tooLarge
        }
        do {
            return try await request.body.collect(upTo: maxBodySize)
        } catch let error as HTTPResponseError where error.status == .contentTooLarge {
            // NIOTooManyBytesError: the body went past maxBodySize while streaming.
            throw tooLarge
        }
    }

    private var tooLarge: AdminError {
        AdminError(.contentTooLarge, "the body is larger than \(maxBodySize) bytes")
    }
}
