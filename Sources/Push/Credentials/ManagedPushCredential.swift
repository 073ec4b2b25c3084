/// One credential the ``PushCredentialService`` keeps fresh: what makes it,
/// and the store its provider reads it from.
public struct ManagedPushCredential: Sendable {
    public let maker: any PushCredentialMaker
    public let store: PushCredentialStore

    public init(maker: any PushCredentialMaker, store: PushCredentialStore) {
        self.maker = maker
        self.store = store
    }
}
