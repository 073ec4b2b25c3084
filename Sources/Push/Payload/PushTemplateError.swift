/// Why an operator's push template cannot be used: a Mustache syntax error,
/// or output that is not a JSON object. The description says which, for
/// `sipwake config check` and the logs.
public struct PushTemplateError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
