import Foundation
@testable import Config

/// Shared helpers for the Config tests.
enum ConfigTestSupport {
    /// A made-up absolute config file path: errors name it, paths resolve against /srv/sipwake/etc.
    static let file = "/srv/sipwake/etc/sipwake.toml"

    /// The repository root, from this file's location (Tests/ConfigTests/…).
    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// The error `parse` throws, or nil when it accepts the text.
    static func parseError(_ text: String, file: String = file, environment: [String: String] = [:]) -> ConfigError? {
        do {
            _ = try SipwakeConfig.parse(text, file: file, environment: environment)
            return nil
        } catch {
            return error
        }
    }

    /// The label messages use for a dotted key: `sip.listen` → `[sip] listen`.
    static func label(_ key: String) -> String {
        let parts = key.split(separator: ".", maxSplits: 1)
        return "[\(parts[0])] \(parts[1])"
    }
}
