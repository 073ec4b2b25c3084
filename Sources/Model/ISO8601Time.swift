import Foundation

/// How sipwake writes a time for people and programs to read: ISO 8601 in
/// UTC, `2026-11-22T01:06:13Z`, or with milliseconds where a call's story
/// needs them, `2026-11-22T01:06:13.482Z`.
public enum ISO8601Time {
    /// Whole seconds; a Sendable value, so one is shared.
    private static let style = Date.ISO8601FormatStyle(timeZone: .gmt)

    /// `2026-11-22T01:06:13Z` (the fraction is dropped).
    public static func seconds(_ date: Date) -> String {
        date.formatted(style)
    }

    /// `2026-11-22T01:06:13.482Z`, rounded to the nearest millisecond (the
    /// formatter's own fractional seconds truncate, so 0.3 s after a start
    /// could print as .299).
    public static func milliseconds(_ date: Date) -> String {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        let seconds = (milliseconds / 1000).rounded(.down)
        let fraction = Int(milliseconds - seconds * 1000)
        let text = Date(timeIntervalSince1970: seconds).formatted(style)
        // `…:13Z` → `…:13.482Z`
        return String(text.dropLast()) + "." + String(String(fraction + 1000).dropFirst()) + "Z"
    }
}
