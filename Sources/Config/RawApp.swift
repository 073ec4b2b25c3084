/// One `[apps.NAME]` table as read from the file: its keys' values (types
/// already checked against ``ConfigSchema/appKeys``) and their lines.
struct RawApp: Sendable {
    let name: String
    let line: Int?
    var values: [String: ConfigValue] = [:]
    var lines: [String: Int] = [:]
}
