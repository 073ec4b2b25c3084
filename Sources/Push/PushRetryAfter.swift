import Foundation
import Ports

/// A provider's `Retry-After` answer header, as seconds to wait: either a
/// number of seconds (`120`) or an HTTP date (`Wed, 21 Oct 2026 07:28:00 GMT`,
/// counted from `now`; a date already past means 0).
public enum PushRetryAfter {
    /// The wait the `Retry-After` header among `headers` asks for; nil when
    /// there is none or it cannot be read.
    public static func seconds(in headers: [PushHTTPHeader], now: Date = Date()) -> Double? {
        guard let value = headers.first(where: { $0.name.lowercased() == "retry-after" })?.value else { return nil }
        return seconds(value, now: now)
    }

    /// The wait `value` (a `Retry-After` value) asks for; nil when it cannot be read.
    public static func seconds(_ value: String, now: Date) -> Double? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(text) {
            return seconds.isFinite && seconds >= 0 ? seconds : nil
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return max(0, date.timeIntervalSince(now)) }
        }
        return nil
    }
}
