import SIPWake
import Testing

/// Where the CLI looks for its config when it is not told, in order.
struct ConfigLoaderTests {
    private let executable = "/home/op/sipwake/.build/x86_64-unknown-linux-gnu/release/sipwake"
    private let checkoutFiles: Set<String> = ["/home/op/sipwake/Package.swift", "/home/op/sipwake/etc/sipwake.toml"]

    private func resolve(_ option: String? = nil, environment: [String: String] = [:], files: Set<String>,
                         executable: String? = nil) -> String? {
        try? ConfigLoader.resolvePath(option, environment: environment, currentDirectory: "/srv",
                                      executable: executable ?? self.executable, isReadable: files.contains).get()
    }

    @Test func anOptionOrTheEnvironmentIsTakenAsGivenEvenWhenMissing() {
        let all = checkoutFiles.union(["etc/sipwake.toml", ConfigLoader.installedPath])
        #expect(resolve("my.toml", environment: ["SIPWAKE_CONFIG": "env.toml"], files: all) == "my.toml")
        #expect(resolve(environment: ["SIPWAKE_CONFIG": "env.toml"], files: all) == "env.toml")
        #expect(resolve("", environment: ["SIPWAKE_CONFIG": ""], files: all) == "etc/sipwake.toml", "empty is unset")
    }

    @Test func theCurrentDirectoryThenTheBinarysCheckoutThenTheInstalledFile() {
        let installed: Set<String> = [ConfigLoader.installedPath]
        #expect(resolve(files: checkoutFiles.union(installed).union(["etc/sipwake.toml"])) == "etc/sipwake.toml")
        #expect(resolve(files: checkoutFiles.union(installed)) == "/home/op/sipwake/etc/sipwake.toml")
        #expect(resolve(files: installed) == ConfigLoader.installedPath)
        #expect(resolve(files: installed.union(["/home/op/sipwake/etc/sipwake.toml"])) == ConfigLoader.installedPath,
                "a directory without Package.swift is not a checkout")
        #expect(resolve(files: checkoutFiles.union(installed), executable: "/usr/local/bin/sipwake")
                == ConfigLoader.installedPath)
    }

    @Test func noneFoundSaysWhereItLookedAndHowToNameOne() {
        let result = ConfigLoader.resolvePath(nil, environment: [:], currentDirectory: "/srv", executable: executable,
                                              isReadable: { _ in false })
        guard case .failure(let error) = result else {
            Issue.record("found \(result)")
            return
        }
        #expect(error.description == "no configuration file found (looked for etc/sipwake.toml in /srv, "
            + "/etc/sipwake/sipwake.toml); name one with --config FILE or SIPWAKE_CONFIG=FILE")
    }
}
