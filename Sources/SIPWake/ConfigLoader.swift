import Config
import Foundation

/// Where the CLI finds its config: `--config`, else `$SIPWAKE_CONFIG`, else
/// `etc/sipwake.toml` in the current directory.
public enum ConfigLoader {
    public static func resolvePath(_ option: String?, environment: [String: String]) -> String {
        if let option, !option.isEmpty { return option }
        if let env = environment["SIPWAKE_CONFIG"], !env.isEmpty { return env }
        return "etc/sipwake.toml"
    }

    public static func load(_ option: String?, environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(ConfigError) -> SipwakeConfig
    {
        try SipwakeConfig.load(path: resolvePath(option, environment: environment), environment: environment)
    }
}
