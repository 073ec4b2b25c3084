/// Why a Firebase service account file cannot be used: not JSON, a field
/// missing, or a private key that is not an RSA key. The description names
/// the field, never its value.
public struct FCMServiceAccountError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
