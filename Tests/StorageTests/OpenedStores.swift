import Ports
import PostgreSQLStorage
import StorageSupport

/// One adapter's database, opened for a test: the ports, what the writers
/// write through, the change head, and how to close it all.
struct OpenedStores {
    let adapter: StoreAdapter
    let stores: Stores
    /// The binding store by both its faces: what the writer writes through, what callers read.
    let bindingStore: any BindingRepository & BindingBatchStore
    var bindingBatch: any BindingBatchStore { bindingStore }
    let callRecordStore: any CallRecordArchive & CallRecordBatchStore
    var callRecordBatch: any CallRecordBatchStore { callRecordStore }
    var callRecords: CallRecordStoreUnderTest { CallRecordStoreUnderTest(store: callRecordStore) }
    let head: () throws -> any TupleChangeHead
    let close: () -> Void
    /// The PostgreSQL database itself, for tests of that adapter only.
    var postgresql: PostgreSQLDatabase?

    /// Runs `body` on a fresh database of `adapter`, closed afterwards.
    static func with(_ adapter: StoreAdapter, _ body: (OpenedStores) throws -> Void) throws {
        let opened = try adapter.open()
        defer { opened.close() }
        try body(opened)
    }
}
