import Hummingbird

/// The client's IP address as the limiters and logs key it: the address the
/// TCP connection comes from (never a forwarded header), when the context
/// knows it (`RemoteAddressRequestContext`, e.g. `APIRequestContext`).
/// Without it every client is "unknown" and shares one count.
enum ClientAddress {
    static func of<Context: RequestContext>(_ context: Context) -> String {
        guard let remote = (context as? any RemoteAddressRequestContext)?.remoteAddress else { return "unknown" }
        return remote.ipAddress ?? remote.description
    }
}
