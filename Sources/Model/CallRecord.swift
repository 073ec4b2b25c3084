import Foundation

/// The story of one incoming call, kept for `calls.record_retention_days` so
/// an operator can answer "why didn't the phone ring?": the pairing id, the
/// callee, every push and what the gateway said, every branch and its final
/// response, the outcome and a timeline.
public struct CallRecord: Sendable, Equatable, Codable {
    /// Record id (a UUID string); `sipwake calls show` also accepts the pairing id or Call-ID.
    public var id: String
    /// The `Id` of the pushes and the `X-Push-ID` of every forked INVITE.
    public var pairingID: String
    /// Call-ID of the INVITE sipwake received.
    public var callID: String
    /// The callee's AOR (user part, lower-cased).
    public var callee: String
    /// The caller's From URI.
    public var caller: String
    public var callerDisplayName: String?
    public var startedAt: Date
    public var endedAt: Date?
    /// nil while the call is pending.
    public var outcome: CallOutcome?
    /// The final status the caller received.
    public var finalStatus: Int?
    /// Contact of the branch that answered (or declined).
    public var answeredBy: String?
    /// The answering device's dialog tag (the To tag of the 2xx relayed),
    /// so that the BYE of that dialog, and none other, ends the call.
    public var answerTag: String?
    /// When the answered call's dialog ended: the first BYE of that dialog
    /// sipwake relayed. Talk time runs from `endedAt` (the answer) to here.
    public var hungUpAt: Date?
    /// Who sent that BYE.
    public var hungUpBy: CallParty?
    /// Why sipwake refused the call before ringing anyone (outcome
    /// `rejected`): `unknown user`, `too many hops`, `credentials failed: …`.
    public var reason: String?
    public var pushes: [CallPushRecord]
    public var branches: [CallBranchRecord]
    public var events: [CallEventRecord]

    public init(
        id: String, pairingID: String, callID: String, callee: String, caller: String,
        callerDisplayName: String? = nil, startedAt: Date, endedAt: Date? = nil,
        outcome: CallOutcome? = nil, finalStatus: Int? = nil, answeredBy: String? = nil,
        pushes: [CallPushRecord] = [], branches: [CallBranchRecord] = [], events: [CallEventRecord] = [],
        answerTag: String? = nil, hungUpAt: Date? = nil, hungUpBy: CallParty? = nil, reason: String? = nil
    ) {
        self.id = id
        self.pairingID = pairingID
        self.callID = callID
        self.callee = callee
        self.caller = caller
        self.callerDisplayName = callerDisplayName
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.outcome = outcome
        self.finalStatus = finalStatus
        self.answeredBy = answeredBy
        self.answerTag = answerTag
        self.hungUpAt = hungUpAt
        self.hungUpBy = hungUpBy
        self.reason = reason
        self.pushes = pushes
        self.branches = branches
        self.events = events
    }

    /// The last thing known about the call: the latest time in its timeline,
    /// pushes and branches, or its start when nothing followed it.
    public var lastKnownAt: Date {
        var times = [startedAt]
        if let endedAt { times.append(endedAt) }
        if let hungUpAt { times.append(hungUpAt) }
        times += events.map(\.at)
        times += pushes.flatMap { [$0.sentAt] + [$0.completedAt].compactMap { $0 } }
        times += branches.flatMap { [$0.startedAt] + [$0.provisionalAt, $0.endedAt].compactMap { $0 } }
        return times.max() ?? startedAt
    }

    /// This record with the hang-up `bye` told, when `bye` ends its
    /// call: the call was answered, the BYE is of the answering device's
    /// dialog (one of its tags is `answerTag`), and no BYE ended it before.
    /// nil otherwise (another dialog's BYE, a second BYE, a call not answered).
    public func hangingUp(_ bye: CallHangUp) -> CallRecord? {
        guard outcome == .answered, hungUpAt == nil, bye.callID == callID, let answerTag,
              bye.fromTag == answerTag || bye.toTag == answerTag else { return nil }
        var record = self
        let party: CallParty = bye.fromTag == answerTag ? .callee : .caller
        record.hungUpAt = bye.at
        record.hungUpBy = party
        // In time order: a call still kept in memory adds events after it.
        let index = record.events.firstIndex { $0.at > bye.at } ?? record.events.endIndex
        record.events.insert(CallEventRecord(at: bye.at, event: "call hung up", detail: "by=\(party.rawValue)"), at: index)
        return record
    }
}
