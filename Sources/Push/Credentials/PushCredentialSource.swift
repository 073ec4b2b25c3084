/// What an app's credential is made from: an APNs signing key with its key
/// and team ids, or an FCM service account. Two equal sources make
/// interchangeable credentials, so a reload that leaves it unchanged keeps
/// the credential already made. Compared in memory only, never logged.
enum PushCredentialSource: Hashable, Sendable {
    case apns(appID: String, keyID: String, teamID: String, keyPEM: String)
    case fcm(appID: String, projectID: String, clientEmail: String, privateKeyID: String, tokenURI: String)

    init(_ app: PushAppSettings) {
        switch app {
        case .apns(let settings):
            self = .apns(appID: settings.appID, keyID: settings.keyID, teamID: settings.teamID,
                         keyPEM: settings.signingKeyPEM)
        case .fcm(let settings):
            let account = settings.serviceAccount
            self = .fcm(appID: settings.appID, projectID: account.projectID, clientEmail: account.clientEmail,
                        privateKeyID: account.privateKeyID, tokenURI: account.tokenURI)
        }
    }
}
