/// Makes configured paths absolute: relative ones are taken against the directory
/// holding the configuration file. Lexical only: `.` and `..` are removed, symbolic
/// links are left alone.
enum PathResolver {
    /// The absolute directory holding `file`; a relative `file` is taken against `currentDirectory`.
    static func directory(of file: String, currentDirectory: String) -> String {
        let absolute = file.hasPrefix("/") ? file : currentDirectory + "/" + file
        var components = normalizedComponents(absolute)
        if !components.isEmpty { components.removeLast() }
        return "/" + components.joined(separator: "/")
    }

    /// `path` if absolute, else `path` under `directory`; normalized either way.
    static func resolve(_ path: String, against directory: String) -> String {
        let absolute = path.hasPrefix("/") ? path : directory + "/" + path
        return "/" + normalizedComponents(absolute).joined(separator: "/")
    }

    private static func normalizedComponents(_ absolutePath: String) -> [String] {
        var result: [String] = []
        for component in absolutePath.split(separator: "/") {
            switch component {
            case ".": continue
            case "..": if !result.isEmpty { result.removeLast() }
            default: result.append(String(component))
            }
        }
        return result
    }
}
