import Ports

/// The push providers sipwake can send through, by name: each device tuple
/// names the one that reaches it.
public struct PushProviders: Sendable {
    private let byName: [String: any PushProvider]

    public init(_ providers: [any PushProvider]) {
        var byName: [String: any PushProvider] = [:]
        for provider in providers { byName[provider.name] = provider }
        self.byName = byName
    }

    /// The provider called `name`, nil when none is configured.
    public func provider(named name: String) -> (any PushProvider)? {
        byName[name]
    }

    public var names: [String] { byName.keys.sorted() }
}
