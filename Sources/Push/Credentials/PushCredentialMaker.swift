import Foundation

/// Something that makes one app's push credential: signs an APNs provider
/// token, or trades a signed assertion for an FCM access token. Making may
/// take time (signing is asynchronous, OAuth is a network exchange), so the
/// ``PushCredentialService`` does it beside the providers, which only read the
/// result from the app's ``PushCredentialStore``.
///
/// Errors thrown must not contain the key, the assertion or the token: their
/// descriptions are logged.
public protocol PushCredentialMaker: Sendable {
    /// The provider the credential is for (`apns`, `fcm`), as metrics name it.
    var provider: String { get }
    /// The app the credential is for.
    var appID: String { get }
    /// A new credential, made at `now`.
    func makeCredential(at now: Date) async throws -> PushCredential
    /// When `credential`, made by this maker, should be replaced by a new one.
    func renewalTime(of credential: PushCredential) -> Date
}
