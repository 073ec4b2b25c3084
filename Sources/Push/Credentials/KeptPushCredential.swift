/// One app's credential as a ``PushSystem`` keeps it: what it is made from,
/// and the maker and store the ``PushCredentialService`` renews.
struct KeptPushCredential: Sendable {
    let source: PushCredentialSource
    let managed: ManagedPushCredential
}
