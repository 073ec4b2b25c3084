import Foundation

/// One device's push tuple for one account, as stored in `device_tuples`:
/// the Selector (the account on the device) and up to two (AppId, DeviceToken)
/// pairs: "calls" (VoIP pushes: NotifyIncomingCall) and "other" (missed and
/// answered-elsewhere pushes). At least one pair is complete; a pair is never
/// half-filled.
public struct DeviceTuple: Sendable, Equatable, Codable {
    public var id: Int64
    /// Lower-cased; an existing user.
    public var username: String
    /// The account selector on the device, e.g. `12869E0E…2A:7C3A0D14`.
    public var selector: String
    /// `%pushappid_incoming_call%` (or `%pushappid%` when the app reports one pair).
    public var appIDCalls: String?
    /// `%pushTokenIncomingCall%` (or `%pushToken%`).
    public var tokenCalls: String?
    /// `%pushappid_other%`.
    public var appIDOther: String?
    /// `%pushTokenOther%`.
    public var tokenOther: String?
    public var platform: DevicePlatform?
    /// The push service that reaches this device, e.g. `acrobits` (the
    /// Acrobits gateway, the default): lowercase letters, digits and hyphens,
    /// at most 32 characters.
    public var provider: String
    public var createdAt: Date
    /// The last report (Push Token Reporter call) of this tuple.
    public var lastSeenAt: Date
    /// When push delivery last tried this tuple, and what the gateway said.
    public var lastPushAt: Date?
    /// HTTP status of the last push, when the gateway answered.
    public var lastPushStatus: Int?
    public var lastPushResult: String?

    /// The provider of a tuple nobody chose one for: the Acrobits gateway.
    public static let defaultProvider = "acrobits"

    /// Whether `provider` can name a push provider: 1...32 lowercase ASCII
    /// letters, digits and hyphens.
    public static func isValidProvider(_ provider: String) -> Bool {
        (1...32).contains(provider.utf8.count)
            && provider.utf8.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == 45 }
    }

    public init(
        id: Int64, username: String, selector: String,
        appIDCalls: String?, tokenCalls: String?, appIDOther: String?, tokenOther: String?,
        platform: DevicePlatform?, provider: String = DeviceTuple.defaultProvider, createdAt: Date, lastSeenAt: Date,
        lastPushAt: Date? = nil, lastPushStatus: Int? = nil, lastPushResult: String? = nil
    ) {
        self.id = id
        self.username = username
        self.selector = selector
        self.appIDCalls = appIDCalls
        self.tokenCalls = tokenCalls
        self.appIDOther = appIDOther
        self.tokenOther = tokenOther
        self.platform = platform
        self.provider = provider
        self.createdAt = createdAt
        self.lastSeenAt = lastSeenAt
        self.lastPushAt = lastPushAt
        self.lastPushStatus = lastPushStatus
        self.lastPushResult = lastPushResult
    }
}
