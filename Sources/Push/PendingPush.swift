/// A push handed to ``PushClient/send(_:completion:)`` that the HTTP thread has not started yet.
struct PendingPush: Sendable {
    let notification: PushNotification
    let completion: @Sendable (PushResult) -> Void
}
