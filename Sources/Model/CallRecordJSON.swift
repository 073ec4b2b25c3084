import Foundation

/// A call record as operators read it: `sipwake calls … --json` and the admin
/// API print the same object. Keys are snake_case, every field is present
/// (absent values are `null`), times are ISO 8601 UTC with milliseconds
/// (`2026-11-22T01:06:13.482Z`): a call's story happens within seconds.
public enum CallRecordJSON {
    /// Whole seconds; a Sendable value, so one is shared.
    private static let iso8601 = Date.ISO8601FormatStyle(timeZone: .gmt)

    /// Rounded to the nearest millisecond (the formatter's own fractional
    /// seconds truncate, so 0.3 s after a start could print as .299).
    public static func timestamp(_ date: Date) -> String {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        let seconds = (milliseconds / 1000).rounded(.down)
        let fraction = Int(milliseconds - seconds * 1000)
        let text = Date(timeIntervalSince1970: seconds).formatted(iso8601)
        // `…:13Z` → `…:13.482Z`
        return String(text.dropLast()) + "." + String(String(fraction + 1000).dropFirst()) + "Z"
    }

    /// The whole record, for `JSONSerialization`.
    public static func object(_ r: CallRecord) -> [String: Any] {
        [
            "id": r.id, "pairing_id": r.pairingID, "call_id": r.callID,
            "callee": r.callee, "caller": r.caller, "caller_display_name": r.callerDisplayName ?? NSNull(),
            "started_at": timestamp(r.startedAt), "ended_at": optional(r.endedAt),
            "outcome": r.outcome?.rawValue ?? NSNull(), "final_status": r.finalStatus ?? NSNull(),
            "answered_by": r.answeredBy ?? NSNull(),
            "pushes": r.pushes.map(object), "branches": r.branches.map(object), "events": r.events.map(object),
        ]
    }

    static func object(_ p: CallPushRecord) -> [String: Any] {
        [
            "id": p.id, "tuple_id": Int(p.tupleID), "selector": p.selector, "verb": p.verb,
            "attempt": p.attempt, "sent_at": timestamp(p.sentAt), "completed_at": optional(p.completedAt),
            "http_status": p.httpStatus ?? NSNull(), "result": p.result ?? NSNull(), "detail": p.detail ?? NSNull(),
        ]
    }

    static func object(_ b: CallBranchRecord) -> [String: Any] {
        [
            "id": b.id, "contact": b.contact, "instance_id": b.instanceID ?? NSNull(), "reason": b.reason,
            "started_at": timestamp(b.startedAt),
            "provisional_status": b.provisionalStatus ?? NSNull(), "provisional_at": optional(b.provisionalAt),
            "final_status": b.finalStatus ?? NSNull(), "ended_at": optional(b.endedAt),
            "cancelled": b.cancelled ?? NSNull(),
        ]
    }

    static func object(_ e: CallEventRecord) -> [String: Any] {
        ["at": timestamp(e.at), "event": e.event, "detail": e.detail ?? NSNull()]
    }

    private static func optional(_ date: Date?) -> Any {
        date.map(timestamp) ?? NSNull()
    }
}
