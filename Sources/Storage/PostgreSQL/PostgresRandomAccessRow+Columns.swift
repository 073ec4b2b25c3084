import Ports
import PostgresNIO

extension PostgresRandomAccessRow {
    /// The value of column `name`, or `corruptRow` naming the table and the
    /// column (never the value) when it is not of the expected type.
    func column<T: PostgresDecodable>(_ name: String, in table: String, as type: T.Type = T.self) throws -> T {
        do {
            return try self[name].decode(T.self)
        } catch {
            throw StorageError.corruptRow(table: table, detail: "column '\(name)' does not hold a \(T.self)")
        }
    }
}
