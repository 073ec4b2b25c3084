/// Where a device's binding-refresh pushes go: its tuple and its other
/// (alert, FCM) token. A device without one gets no refresh push (an iOS
/// VoIP token is for ringing calls only).
struct PNSRefreshTarget: Sendable, Equatable {
    var tupleID: Int64
    var provider: String
    var appID: String
    var token: String?
}
