import Config
import SQLiteStorage

/// Opens the database named by the config for a CLI command. The server may
/// be running on the same file: SQLite's WAL mode lets both work.
enum DatabaseAccess {
    static func open(_ config: SipwakeConfig) throws -> CLIDatabase {
        do {
            let database = try SipwakeDatabase(path: config.database.path)
            return CLIDatabase(stores: database.stores, close: database.close)
        } catch {
            throw CLIError("cannot open database \(config.database.path): \(error)")
        }
    }
}
