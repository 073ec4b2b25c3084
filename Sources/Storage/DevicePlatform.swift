/// The platform a device tuple was reported from, when the app said so.
/// Push delivery picks APNs or FCM by it.
public enum DevicePlatform: String, Sendable, Equatable, Codable, CaseIterable {
    case ios
    case android
}
