import Foundation

/// A credential a push provider sends with its pushes (an APNs provider
/// token, an FCM OAuth access token): its text, when it was made and when the
/// service stops taking it. The text is a secret: it never goes to a log.
public struct PushCredential: Sendable, Equatable {
    public var token: String
    public var issuedAt: Date
    public var expiresAt: Date

    public init(token: String, issuedAt: Date, expiresAt: Date) {
        self.token = token
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
    }
}
