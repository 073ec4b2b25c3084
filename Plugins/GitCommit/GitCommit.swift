import Foundation
import PackagePlugin

/// Writes `GitCommit.swift` into the target it is applied to: the short
/// commit of the checkout the package is built from, or "unknown" when the
/// package is not a git checkout of its own (a release tarball) or git is
/// missing. A prebuild command runs before every build, so the binary names
/// the commit it was really built from; the file is rewritten only when the
/// commit changed, so an unchanged checkout recompiles nothing.
@main
struct GitCommit: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "generated")
        let file = output.appending(path: "GitCommit.swift")
        // The package's own checkout only: a package vendored inside another
        // repository must not take that repository's commit.
        let script = """
            dir="$1"; out="$2"; file="$3"
            commit=unknown
            top=$(git -C "$dir" rev-parse --show-toplevel 2>/dev/null) \\
              && [ "$(cd "$top" && pwd -P)" = "$(cd "$dir" && pwd -P)" ] \\
              && commit=$(git -C "$dir" rev-parse --short HEAD 2>/dev/null) || commit=unknown
            mkdir -p "$out"
            text="/// The commit sipwake was built from (written by the GitCommit plugin).
            let gitCommit = \\"$commit\\""
            if [ "$(cat "$file" 2>/dev/null)" != "$text" ]; then printf '%s\\n' "$text" > "$file"; fi
            """
        return [.prebuildCommand(
            displayName: "Reading the git commit of \(context.package.displayName)",
            executable: URL(fileURLWithPath: "/bin/sh"),
            arguments: ["-c", script, "git-commit", context.package.directoryURL.path, output.path, file.path],
            outputFilesDirectory: output)]
    }
}
