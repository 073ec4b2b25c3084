/// Why an APNs signing key cannot be used. The description says what is
/// wrong with the file, never what is in it.
public struct APNsSigningKeyError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
