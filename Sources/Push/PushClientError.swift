/// Why ``PushClient/run()`` could not send pushes.
public struct PushClientError: Error, CustomStringConvertible, Sendable {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
