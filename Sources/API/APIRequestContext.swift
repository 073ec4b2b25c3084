import Hummingbird
import NIOCore

/// The request context of the API router: Hummingbird's core context plus
/// the client's address, which `BasicRequestContext` does not keep. The
/// reporters rate-limit failed logins per address with it.
public struct APIRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The address the TCP connection comes from (not a forwarded header).
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress
    }
}
