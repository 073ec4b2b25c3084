import Hummingbird

/// Google's error answers (`{"error":{"code","message","status","details"}}`)
/// as FCM HTTP v1 sends them.
struct PushSinkGoogleError: Sendable, Equatable {
    let code: Int
    let message: String
    let status: String
    /// FCM's `errorCode` in a `google.firebase.fcm.v1.FcmError` detail.
    let errorCode: String?
    /// A `google.rpc.BadRequest` field violation: the field and its description.
    let field: String?

    init(code: Int, message: String, status: String, errorCode: String? = nil, field: String? = nil) {
        self.code = code
        self.message = message
        self.status = status
        self.errorCode = errorCode
        self.field = field
    }

    /// The word a record keeps: the `errorCode` when there is one, else the `status`.
    var reason: String { errorCode ?? status }

    var json: PushSinkJSON {
        var details: [PushSinkJSON] = []
        if let errorCode {
            details.append(.object([
                "@type": .string("type.googleapis.com/google.firebase.fcm.v1.FcmError"), "errorCode": .string(errorCode),
            ]))
        }
        if let field {
            details.append(.object([
                "@type": .string("type.googleapis.com/google.rpc.BadRequest"),
                "fieldViolations": .array([.object(["field": .string(field), "description": .string(message)])]),
            ]))
        }
        var error: [String: PushSinkJSON] = [
            "code": .number(Double(code)), "message": .string(message), "status": .string(status),
        ]
        if !details.isEmpty { error["details"] = .array(details) }
        return .object(["error": .object(error)])
    }

    static let unauthenticated = PushSinkGoogleError(
        code: 401, message: "Request had invalid authentication credentials.", status: "UNAUTHENTICATED")
    static let senderIDMismatch = PushSinkGoogleError(
        code: 403, message: "SenderId mismatch", status: "PERMISSION_DENIED", errorCode: "SENDER_ID_MISMATCH")
    static let unregistered = PushSinkGoogleError(
        code: 404, message: "Requested entity was not found.", status: "NOT_FOUND", errorCode: "UNREGISTERED")
    static let invalidToken = PushSinkGoogleError(
        code: 400, message: "The registration token is not a valid FCM registration token", status: "INVALID_ARGUMENT",
        errorCode: "INVALID_ARGUMENT")

    /// A request FCM cannot read: 400 `INVALID_ARGUMENT`, naming the field when there is one.
    static func invalidArgument(_ message: String, field: String? = nil) -> PushSinkGoogleError {
        PushSinkGoogleError(code: 400, message: message, status: "INVALID_ARGUMENT", errorCode: "INVALID_ARGUMENT", field: field)
    }

    /// FCM's answer for a `fail:STATUS` rule.
    static func failure(status: Int) -> PushSinkGoogleError {
        switch status {
        case 400: invalidArgument("Request contains an invalid argument.")
        case 401: unauthenticated
        case 403: PushSinkGoogleError(code: 403, message: "The caller does not have permission", status: "PERMISSION_DENIED",
                                      errorCode: "THIRD_PARTY_AUTH_ERROR")
        case 404: unregistered
        case 429: PushSinkGoogleError(code: 429, message: "Quota exceeded for quota metric 'Send requests' of service 'fcm.googleapis.com'.",
                                      status: "RESOURCE_EXHAUSTED", errorCode: "QUOTA_EXCEEDED")
        case 500: PushSinkGoogleError(code: 500, message: "Internal error encountered.", status: "INTERNAL", errorCode: "INTERNAL")
        case 503: PushSinkGoogleError(code: 503, message: "The service is currently unavailable.", status: "UNAVAILABLE",
                                      errorCode: "UNAVAILABLE")
        default: PushSinkGoogleError(code: status, message: "push sink rule fail:\(status)", status: "UNKNOWN")
        }
    }

    /// Google's 404 for a path under `/v1/projects/` that is not `messages:send`.
    static func notFound(path: String) -> Response {
        let error = PushSinkGoogleError(code: 404, message: "Method not found: \(path)", status: "NOT_FOUND")
        return PushSinkRoutes.json(status: 404, error.json)
    }
}
