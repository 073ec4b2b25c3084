import Hummingbird

/// A refusal of the admin API, sent as `{"error": "<message>", "field": "<name>"}`.
/// Conforms to `HTTPResponseError`, so a handler or the authenticator can
/// throw it and Hummingbird answers with `response(from:context:)`.
struct AdminError: HTTPResponseError, Sendable {
    let status: HTTPResponse.Status
    /// A sentence for a human; never contains a token.
    let message: String
    /// The request field, query parameter or path parameter at fault.
    let field: String?
    let headers: HTTPFields

    init(_ status: HTTPResponse.Status, _ message: String, field: String? = nil, headers: HTTPFields = [:]) {
        self.status = status
        self.message = message
        self.field = field
        self.headers = headers
    }

    static func badRequest(_ message: String, field: String? = nil) -> AdminError {
        AdminError(.badRequest, message, field: field)
    }

    static func notFound(_ message: String, field: String? = nil) -> AdminError {
        AdminError(.notFound, message, field: field)
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        APIJSON.response(status, AdminErrorJSON(error: message, field: field), headers: headers)
    }
}
