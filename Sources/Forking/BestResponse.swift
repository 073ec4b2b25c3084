/// Chooses the response a caller gets when every branch failed
/// (RFC 3261 §16.7 step 6).
public enum BestResponse {
    /// The best of the branches' final responses, by class: 6xx first (they
    /// end the call at once, so they rarely get here), then 3xx, 4xx and 5xx.
    /// Within a class a response that came from a device beats one that Sofia
    /// made up for a silent branch (408) or an unreachable one (503), and a
    /// lower code wins ties. Returns nil when no branch has a final response.
    public static func pick(_ finals: [(id: BranchID, status: Int)]) -> (id: BranchID, status: Int)? {
        finals.min { rank($0.status) < rank($1.status) || (rank($0.status) == rank($1.status) && $0.id < $1.id) }
    }

    /// The status to send upstream for a chosen branch response: a 503 is
    /// turned into 500 so the caller does not take it as this proxy being
    /// overloaded (RFC 3261 §16.7 step 6), and a 408 (no device answered at
    /// all) into 480, which a PBX treats as "unavailable" and routes on.
    public static func upstreamStatus(_ status: Int) -> Int {
        switch status {
        case 503: return 500
        case 408: return 480
        default: return status
        }
    }

    private static func rank(_ status: Int) -> Int {
        let classOrder: Int
        switch status / 100 {
        case 6: classOrder = 0
        case 3: classOrder = 1
        case 4: classOrder = 2
        default: classOrder = 3
        }
        let synthetic = (status == 408 || status == 503) ? 1 : 0
        return classOrder * 10_000 + synthetic * 1_000 + status
    }
}
