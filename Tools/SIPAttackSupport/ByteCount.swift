import Foundation

/// Sizes as people read them.
public enum ByteCount {
    /// "512 B", "12.3 KiB", "31.2 MiB", "1.50 GiB".
    public static func text(_ bytes: Int) -> String {
        let value = Double(bytes)
        if abs(value) < 1024 { return "\(bytes) B" }
        if abs(value) < 1024 * 1024 { return String(format: "%.1f KiB", value / 1024) }
        if abs(value) < 1024 * 1024 * 1024 { return String(format: "%.1f MiB", value / 1_048_576) }
        return String(format: "%.2f GiB", value / 1_073_741_824)
    }
}
