import Config
import Storage

/// Opens the database named by the config for a CLI command. The server may
/// be running on the same file: SQLite's WAL mode lets both work.
enum DatabaseAccess {
    static func open(_ config: SipwakeConfig) throws -> SipwakeDatabase {
        do {
            return try SipwakeDatabase(path: config.database.path)
        } catch {
            throw CLIError("cannot open database \(config.database.path): \(error)")
        }
    }
}
