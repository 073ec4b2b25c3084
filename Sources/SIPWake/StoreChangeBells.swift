import Ports

/// One doorbell per cache a node keeps of the store: a store notification
/// (`StoreNotifications`) rings the one it names, and that cache's reader,
/// which otherwise reads on its timer, reads at once.
struct StoreChangeBells: Sendable {
    let bindings = Doorbell()
    let bindingDeletions = Doorbell()
    let users = Doorbell()
    let tuples = Doorbell()

    func ring(_ change: StoreChange) {
        switch change {
        case .bindings: bindings.ring()
        case .bindingDeletions: bindingDeletions.ring()
        case .users: users.ring()
        case .tuples: tuples.ring()
        }
    }
}
