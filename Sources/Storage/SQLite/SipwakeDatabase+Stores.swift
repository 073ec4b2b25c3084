import Ports

extension SipwakeDatabase {
    /// The stores of this database, for the code that names only the ports.
    public var stores: Stores {
        Stores(users: UserStore(database: self), bindings: BindingStore(database: self),
               tuples: TupleStore(database: self), callRecords: CallRecordStore(database: self))
    }
}
