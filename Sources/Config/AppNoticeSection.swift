/// What an `[apps.NAME]` app's devices get for one kind of call ending
/// (missed, or answered elsewhere): whether it is sent at all, and the
/// visible notification's text on APNs and FCM. Templates are kept as the
/// operator wrote them; they are compiled (and their Mustache syntax
/// checked) when the push settings are made.
public struct AppNoticeSection: Sendable, Hashable {
    /// `missed_notification` / `answered_elsewhere_notification`: false = no
    /// push of this kind at all for this app (not even a silent one).
    public var enabled: Bool
    /// `missed_title` / `answered_elsewhere_title`: a Mustache template of
    /// the notification's title; nil = the built-in one.
    public var title: String?
    /// `missed_body` / `answered_elsewhere_body`: a Mustache template of the
    /// notification's body; nil = the built-in one.
    public var body: String?
    /// `missed_category` / `answered_elsewhere_category`: the APNs
    /// notification category (`aps.category`), which picks the app's
    /// actions; nil = none.
    public var category: String?

    public init(enabled: Bool = true, title: String? = nil, body: String? = nil, category: String? = nil) {
        self.enabled = enabled
        self.title = title
        self.body = body
        self.category = category
    }
}
