import Foundation

/// A call in progress as the admin API's `live-calls` gives it (the call
/// record JSON): the fields of `sipwake calls list --live`'s table.
struct LiveCallJSON: Decodable {
    struct Branch: Decodable {
        let provisionalStatus: Int?
        let finalStatus: Int?

        enum CodingKeys: String, CodingKey {
            case provisionalStatus = "provisional_status", finalStatus = "final_status"
        }
    }

    let pairingID: String
    let callee: String
    let caller: String
    let startedAt: String
    let outcome: String?
    let pushes: [IgnoredField]
    let branches: [Branch]

    /// Any JSON value, not read.
    struct IgnoredField: Decodable {
        init(from decoder: any Decoder) throws {}
    }

    enum CodingKeys: String, CodingKey {
        case pairingID = "pairing_id", callee, caller, startedAt = "started_at", outcome, pushes, branches
    }

    /// `answered` (talking, its BYE still to come) once the call has an
    /// outcome; `ringing` while a device rings; `waking` before.
    var state: String {
        if let outcome { return outcome }
        return branches.contains { $0.provisionalStatus != nil && $0.finalStatus == nil } ? "ringing" : "waking"
    }

    static let headers = ["STARTED", "AGE", "PAIRING-ID", "CALLEE", "CALLER", "STATE", "PUSHES", "BRANCHES"]

    /// `times` reads the API's times (`2026-11-22T01:06:13.482Z`).
    func row(now: Date, times: ISO8601DateFormatter) -> [String] {
        let started = times.date(from: startedAt)
        let age = started.map { "\(max(0, Int(now.timeIntervalSince($0))))s" } ?? "-"
        return [started.map(JSONOutput.timestamp) ?? startedAt, age, CallsOutput.orDash(pairingID),
                CallsOutput.orDash(callee), CallsOutput.orDash(caller), state, String(pushes.count),
                String(branches.count)]
    }
}
