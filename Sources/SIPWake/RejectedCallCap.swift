import Foundation

/// How many refused INVITEs get a call record: at most `perMinute` in each
/// minute (a fixed window from the first refusal in it), so that a flood of
/// refused INVITEs (a scanner guessing passwords, a PBX looping a call)
/// writes a bounded number of rows; the rest are only counted. Pure; used on
/// the SIP loop.
///
/// | refusal | window | decision |
/// |---|---|---|
/// | any | none yet, or a minute old | a new window starts; record |
/// | any | fewer than `perMinute` recorded in it | record |
/// | first past the cap in this window | full | skip, and say so (one warning a minute) |
/// | later ones | full | skip |
struct RejectedCallCap {
    enum Decision: Equatable {
        case record
        /// Not recorded; `first` for the first one this minute.
        case skip(first: Bool)
    }

    /// Refused calls recorded a minute at the most.
    static let defaultPerMinute = 60

    let perMinute: Int
    private var windowStart: Date?
    private var recorded = 0
    private var skipped = 0

    init(perMinute: Int = Self.defaultPerMinute) {
        self.perMinute = max(0, perMinute)
    }

    mutating func decide(now: Date) -> Decision {
        // A clock that went back starts a new window too.
        let inWindow = windowStart.map { now >= $0 && now.timeIntervalSince($0) < 60 } ?? false
        if !inWindow {
            windowStart = now
            recorded = 0
            skipped = 0
        }
        guard recorded < perMinute else {
            skipped += 1
            return .skip(first: skipped == 1)
        }
        recorded += 1
        return .record
    }
}
