/// How the push sink answers a push: like the service for a live token, for a
/// token that is no longer registered, for a token that was never valid, with
/// an error status, or late. The same rule holds for every provider the sink
/// plays (Acrobits, APNs, FCM); each answers it in its own words.
///
/// As text (flags, `POST /rules`): `ok`, `gone`, `bad`, `fail` (status 500),
/// `fail:STATUS` (200 to 599), `slow:MILLISECONDS`.
public enum PushSinkRule: Sendable, Equatable, LosslessStringConvertible {
    /// 200 `{"status":"ok"}`.
    case ok
    /// 404 with `"code":"NotRegistered"`, as the gateway answers for an unregistered token.
    case gone
    /// 400: a token the service never issued (APNs `BadDeviceToken`, FCM
    /// `INVALID_ARGUMENT`; the gateway's `InvalidToken`).
    case bad
    /// `status` with a JSON error body.
    case fail(status: Int)
    /// 200 `{"status":"ok"}` after waiting `milliseconds`.
    case slow(milliseconds: Int)

    /// The longest wait `slow` accepts: one hour.
    public static let maxDelay = 3_600_000

    public init?(_ text: String) {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        switch (parts[0], parts.count) {
        case ("ok", 1): self = .ok
        case ("gone", 1): self = .gone
        case ("bad", 1): self = .bad
        case ("fail", 1): self = .fail(status: 500)
        case ("fail", 2):
            guard let status = Int(parts[1]), (200...599).contains(status) else { return nil }
            self = .fail(status: status)
        case ("slow", 2):
            guard let delay = Int(parts[1]), (0...Self.maxDelay).contains(delay) else { return nil }
            self = .slow(milliseconds: delay)
        default:
            return nil
        }
    }

    public var description: String {
        switch self {
        case .ok: "ok"
        case .gone: "gone"
        case .bad: "bad"
        case .fail(let status): "fail:\(status)"
        case .slow(let milliseconds): "slow:\(milliseconds)"
        }
    }

    /// What the sink answers with this rule as the Acrobits gateway.
    var status: Int {
        switch self {
        case .ok, .slow: 200
        case .gone: 404
        case .bad: 400
        case .fail(let status): status
        }
    }

    /// The gateway's JSON body of the answer.
    var answer: [String: String] {
        switch self {
        case .ok, .slow:
            ["status": "ok"]
        case .gone:
            ["status": "error", "code": "NotRegistered", "message": "Device token is no longer registered"]
        case .bad:
            ["status": "error", "code": "InvalidToken", "message": "Device token is not valid"]
        case .fail(let status):
            ["status": "error", "code": "Failed", "message": "push sink rule fail:\(status)"]
        }
    }
}
