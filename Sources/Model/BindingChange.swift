/// What a registrar decision did to one binding. The location table applies
/// these in memory, the binding store writes them to disk, and later the
/// forking proxy reads them to fork to devices that register during a call.
public enum BindingChange: Sendable, Hashable {
    /// A binding the AOR did not have.
    case added(Binding)
    /// An existing binding refreshed: same device, new expiry (and perhaps a
    /// new Contact URI, source address or connection).
    case refreshed(old: Binding, new: Binding)
    /// Removed by the device (expires=0 or `Contact: *`), by expiry, evicted
    /// to respect the per-AOR cap, or deleted by the operator.
    case removed(Binding, reason: RemovalReason)

    public enum RemovalReason: String, Sendable, Hashable {
        case unregistered
        case expired
        case evicted
        /// `sipwake registrations delete`, the admin API, `users remove`.
        case deleted
    }
}
