import Foundation
import Hummingbird

/// An error answer of the HTTP API: a status and a JSON body
/// `{"error": "<human message>", "field": "<name>"}` (`field` only when one
/// field is to blame), plus any headers the status needs (`WWW-Authenticate`,
/// `Retry-After`). The message never contains a submitted value: tokens and
/// passwords must not come back in answers or logs.
public struct APIError: Error, Sendable, Equatable {
    public var status: HTTPResponse.Status
    public var message: String
    public var field: String?
    public var headers: HTTPFields

    public init(_ status: HTTPResponse.Status, _ message: String, field: String? = nil, headers: HTTPFields = [:]) {
        self.status = status
        self.message = message
        self.field = field
        self.headers = headers
    }

    /// The JSON response.
    public func response() -> Response {
        var body: [String: String] = ["error": message]
        if let field { body["field"] = field }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = (try? encoder.encode(body)) ?? Data(#"{"error":"internal error"}"#.utf8)
        var headers = self.headers
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
