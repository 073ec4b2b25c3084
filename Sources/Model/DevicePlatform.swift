/// The platform a device tuple was reported from, when the app said so.
/// Shown by `sipwake tuples` and the admin API; pushes do not depend on it
/// (the Acrobits gateway routes by the app id).
public enum DevicePlatform: String, Sendable, Equatable, Codable, CaseIterable {
    case ios
    case android
}
