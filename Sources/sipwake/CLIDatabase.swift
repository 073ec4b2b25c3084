import Ports

/// The database a CLI command works on: its stores, and how to close it.
struct CLIDatabase {
    let stores: Stores
    private let closeDatabase: () throws -> Void

    init(stores: Stores, close: @escaping () throws -> Void) {
        self.stores = stores
        self.closeDatabase = close
    }

    /// Checkpoints and closes the file. Idempotent.
    func close() throws {
        try closeDatabase()
    }
}
