import Foundation

/// One forked INVITE (a client transaction to one contact).
public struct CallBranchRecord: Sendable, Equatable, Codable {
    /// Unique within the call.
    public var id: Int
    public var contact: String
    public var instanceID: String?
    /// Why the branch exists: `registered` (contact known when the call came in),
    /// `late-register` (contact added during the call), `re-register` (new INVITE
    /// to a contact that re-registered without a provisional response).
    public var reason: String
    public var startedAt: Date
    /// The first provisional response above 100, if any.
    public var provisionalStatus: Int?
    public var provisionalAt: Date?
    public var finalStatus: Int?
    public var endedAt: Date?
    /// When sipwake cancelled the branch: why (`answered-elsewhere`, `caller-cancelled`,
    /// `declined`, `no-answer`, `replaced`).
    public var cancelled: String?
    /// Why the final response is sipwake's own, not the device's: the
    /// device's flow is gone, no route, no answer in time. nil when the
    /// device (or a proxy on the way) sent it.
    public var finalReason: String?

    public init(id: Int, contact: String, instanceID: String? = nil, reason: String, startedAt: Date,
                provisionalStatus: Int? = nil, provisionalAt: Date? = nil, finalStatus: Int? = nil,
                endedAt: Date? = nil, cancelled: String? = nil, finalReason: String? = nil) {
        self.id = id
        self.contact = contact
        self.instanceID = instanceID
        self.reason = reason
        self.startedAt = startedAt
        self.provisionalStatus = provisionalStatus
        self.provisionalAt = provisionalAt
        self.finalStatus = finalStatus
        self.endedAt = endedAt
        self.cancelled = cancelled
        self.finalReason = finalReason
    }
}
