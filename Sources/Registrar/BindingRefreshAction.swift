/// What the binding-refresh schedule asks for.
public enum BindingRefreshAction: Sendable, Equatable {
    /// Send the device a binding-refresh push carrying `purr`; `attempt` is 1
    /// for the first push of this registration, then 2, 3… for the retries.
    case push(BindingRefreshKey, purr: String, attempt: Int)
    /// The binding expired although refresh pushes were sent: the phone did
    /// not re-register. It stays a push target for calls.
    case unanswered(BindingRefreshKey, pushes: Int)
    /// The binding expired and no refresh push was due yet: the device is
    /// forgotten (it stays a push target for calls).
    case expired(BindingRefreshKey)
}
