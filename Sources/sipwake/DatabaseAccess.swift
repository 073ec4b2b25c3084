import Config
import Logging
import SIPWake

/// Opens the database named by the config for a CLI command. The server may
/// be running on the same database: SQLite's WAL mode lets both work, and
/// PostgreSQL serves every node and CLI at once.
enum DatabaseAccess {
    static func open(_ config: SipwakeConfig) throws -> CLIDatabase {
        do {
            let storage = try SipwakeStorage.open(config.database, logger: Logger(label: "sipwake.cli"))
            return CLIDatabase(stores: storage.stores, close: storage.close)
        } catch {
            throw CLIError("cannot open database \(config.database.displayName): \(error)")
        }
    }
}
