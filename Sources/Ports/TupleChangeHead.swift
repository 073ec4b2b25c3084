/// The latest change of the device-tuple feed (`TupleRepository.changes`),
/// read without waiting: the call path asks it for every INVITE, on the SIP
/// loop, to know whether the tuples it holds in memory are current.
public protocol TupleChangeHead: Sendable {
    /// The latest change, or nil when it cannot be read at once (the
    /// database is locked, or closed): the caller reads the store then.
    func latest() -> Int64?
}
