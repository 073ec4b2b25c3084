import Config
import Foundation

/// Where the CLI finds its config, first found wins:
///
/// 1. `--config FILE`;
/// 2. `$SIPWAKE_CONFIG`;
/// 3. `etc/sipwake.toml` in the current directory (a checkout);
/// 4. `etc/sipwake.toml` of the checkout the executable was built in (the
///    sample config, wherever the command is run from);
/// 5. `/etc/sipwake/sipwake.toml`, where an installed server keeps it.
///
/// A file named by 1 or 2 is taken as given, found or not: its error names it.
public enum ConfigLoader {
    /// The installed server's config file.
    public static let installedPath = "/etc/sipwake/sipwake.toml"
    /// The sample config, relative to a checkout (or the current directory).
    public static let samplePath = "etc/sipwake.toml"

    /// The file to read, or a message saying where none was found and how to
    /// name one. `executable` is the running binary (symlinks resolved).
    public static func resolvePath(_ option: String?, environment: [String: String], currentDirectory: String,
                                   executable: String?, isReadable: (String) -> Bool)
        -> Result<String, ConfigError>
    {
        if let option, !option.isEmpty { return .success(option) }
        if let env = environment["SIPWAKE_CONFIG"], !env.isEmpty { return .success(env) }
        var candidates = [samplePath]
        if let checkout = executable.flatMap({ self.checkout(containing: $0, isReadable: isReadable) }) {
            candidates.append(checkout + "/" + samplePath)
        }
        candidates.append(installedPath)
        if let found = candidates.first(where: { isReadable($0) }) { return .success(found) }
        let places = ["\(samplePath) in \(currentDirectory)"] + candidates.dropFirst()
        return .failure(ConfigError(
            kind: .unreadable, file: "",
            message: "no configuration file found (looked for \(places.joined(separator: ", "))); "
                + "name one with --config FILE or SIPWAKE_CONFIG=FILE"))
    }

    /// The nearest directory above `executable` that holds a sipwake
    /// checkout (`Package.swift` and the sample config).
    static func checkout(containing executable: String, isReadable: (String) -> Bool) -> String? {
        var directory = URL(fileURLWithPath: executable).deletingLastPathComponent()
        for _ in 0..<64 where directory.path != "/" {
            if isReadable(directory.path + "/Package.swift"), isReadable(directory.path + "/" + samplePath) {
                return directory.path
            }
            directory = directory.deletingLastPathComponent()
        }
        return nil
    }

    /// The running binary, symlinks resolved; nil where /proc is missing.
    public static var runningExecutable: String? {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
    }

    /// Resolves the file as `resolvePath` does, on this process's
    /// environment, directory and binary.
    public static func resolvePath(_ option: String?,
                                   environment: [String: String] = ProcessInfo.processInfo.environment)
        -> Result<String, ConfigError>
    {
        resolvePath(option, environment: environment, currentDirectory: FileManager.default.currentDirectoryPath,
                    executable: runningExecutable, isReadable: { FileManager.default.isReadableFile(atPath: $0) })
    }

    public static func load(_ option: String?, environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(ConfigError) -> SipwakeConfig
    {
        let path = try resolvePath(option, environment: environment).get()
        return try SipwakeConfig.load(path: path, environment: environment)
    }
}
