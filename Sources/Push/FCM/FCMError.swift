import Foundation

/// What an FCM error body says:
/// `{"error": {"code": 404, "message": "Requested entity was not found.", "status": "NOT_FOUND",
///   "details": [{"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": "UNREGISTERED"}]}}`.
struct FCMError: Sendable, Equatable {
    /// `error.status`, e.g. `INVALID_ARGUMENT`.
    var status: String?
    /// `error.message`.
    var message: String?
    /// The `errorCode` of the FcmError detail, e.g. `UNREGISTERED`.
    var errorCode: String?
    /// The fields named by `google.rpc.BadRequest` details, e.g. `message.token`.
    var fields: [String] = []
    /// The descriptions of those field violations.
    var fieldDescriptions: [String] = []

    init(status: String? = nil, message: String? = nil, errorCode: String? = nil) {
        self.status = status
        self.message = message
        self.errorCode = errorCode
    }

    /// The error in `body`; nil when it holds none.
    init?(body: Data) {
        guard let top = PushJSONValue.object(from: body), case .object(let error)? = top["error"] else { return nil }
        if case .string(let status)? = error["status"] { self.status = status }
        if case .string(let message)? = error["message"] { self.message = message }
        if case .array(let details)? = error["details"] {
            for case .object(let detail) in details {
                if case .string(let code)? = detail["errorCode"], errorCode == nil { errorCode = code }
                if case .array(let violations)? = detail["fieldViolations"] {
                    for case .object(let violation) in violations {
                        if case .string(let field)? = violation["field"] { fields.append(field) }
                        if case .string(let text)? = violation["description"] { fieldDescriptions.append(text) }
                    }
                }
            }
        }
    }

    /// Whether an `INVALID_ARGUMENT` is about the registration token (a token
    /// FCM does not know), not about the rest of the message.
    var namesRegistrationToken: Bool {
        if fields.contains("message.token") { return true }
        let texts = [message ?? ""] + fieldDescriptions
        return texts.contains { $0.lowercased().contains("registration token") }
    }

    /// The words a result's detail keeps: the error code and message.
    var detail: String {
        let code = errorCode ?? status
        switch (code, message) {
        case let (code?, message?): return "\(code): \(message)"
        case let (code?, nil): return code
        case let (nil, message?): return message
        case (nil, nil): return "error"
        }
    }
}
