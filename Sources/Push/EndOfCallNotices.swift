import Model

/// The notifications of an app pushed directly when a call it was woken for
/// ends (`[apps.NAME]` `missed_*` and `answered_elsewhere_*`).
///
/// Built in: a missed call is an alert titled `Missed call` with the caller
/// as its body (`{{caller}}{{^caller}}Unknown caller{{/caller}}`); an answer
/// elsewhere is silent (it only tells a running app to stop ringing).
public struct EndOfCallNotices: Sendable, Equatable {
    public var missed: EndOfCallNotice
    public var answeredElsewhere: EndOfCallNotice

    public init(missed: EndOfCallNotice = Self.standardMissed, answeredElsewhere: EndOfCallNotice = .silent) {
        self.missed = missed
        self.answeredElsewhere = answeredElsewhere
    }

    /// The built-in notices.
    public static let standard = EndOfCallNotices()

    /// The built-in title of a missed call.
    public static let standardMissedTitle = "Missed call"
    /// The built-in body of a missed call: the caller, else `Unknown caller`.
    public static let standardMissedBody = "{{caller}}{{^caller}}Unknown caller{{/caller}}"

    /// `Missed call`, with the caller as the body.
    public static let standardMissed: EndOfCallNotice = {
        // Constant templates: they compile.
        let title = try? PushTextTemplate(source: EndOfCallNotices.standardMissedTitle)
        let body = try? PushTextTemplate(source: EndOfCallNotices.standardMissedBody)
        return EndOfCallNotice(title: title, body: body)
    }()

    /// The notice of `event`; nil for an incoming call and a binding refresh,
    /// which show no notification text.
    public func notice(for event: PushEvent) -> EndOfCallNotice? {
        switch event {
        case .incomingCall, .bindingRefresh: return nil
        case .missed: return missed
        case .answeredElsewhere: return answeredElsewhere
        }
    }
}
