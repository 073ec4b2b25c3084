/// Why a `[database] url` was refused; never holds the URL itself.
public struct DatabaseURLError: Error, Sendable, Hashable {
    public var reason: String
}
