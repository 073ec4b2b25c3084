import Model

/// The visible notification of one kind of call ending (missed, or answered
/// elsewhere) for one app pushed directly: a title and a body rendered for
/// each push, and on APNs a notification category. Without a title and a
/// body it is no notification: the push stays silent (APNs `background`,
/// FCM data without `title` and `body`).
///
/// Whether a kind is sent at all is not decided here: a kind switched off
/// in `[apps.NAME]` is never made into a push (the call's `PushTarget`s
/// know, see `CallProxy`).
public struct EndOfCallNotice: Sendable, Equatable {
    public var title: PushTextTemplate?
    public var body: PushTextTemplate?
    /// `aps.category` on APNs; nil for none.
    public var category: String?

    public init(title: PushTextTemplate? = nil, body: PushTextTemplate? = nil, category: String? = nil) {
        self.title = title
        self.body = body
        self.category = category
    }

    /// No notification: a silent push.
    public static let silent = EndOfCallNotice()

    /// Whether the push shows something: it has a title or a body template.
    public var isVisible: Bool { title != nil || body != nil }

    /// The title and body rendered for `message`, each left out when it
    /// renders empty; nil when the notice is silent.
    public func text(for message: PushMessage) -> (title: String?, body: String?)? {
        guard isVisible else { return nil }
        let title = self.title.map { $0.render(message) }.flatMap { $0.isEmpty ? nil : $0 }
        let body = self.body.map { $0.render(message) }.flatMap { $0.isEmpty ? nil : $0 }
        return (title, body)
    }
}
