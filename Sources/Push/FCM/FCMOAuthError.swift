/// Why an FCM access token could not be had: Google's OAuth endpoint refused
/// the assertion (its `error` and `error_description`, e.g. `invalid_grant`),
/// answered something unreadable, or could not be reached. Never holds the
/// assertion or a token.
public struct FCMOAuthError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
