import Ports

/// Runs a store call for a command, turning a `StorageError` into the
/// one-line `CLIError` the operator sees.
enum CLIStorage {
    static func run<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as StorageError {
            throw CLIError(error.description)
        }
    }
}
