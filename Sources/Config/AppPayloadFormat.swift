/// What an `[apps.NAME]` app expects in its pushes.
public enum AppPayloadFormat: String, Sendable, Hashable, CaseIterable {
    /// The Acrobits verbs and fields (apps built on the Acrobits SDK).
    case acrobits
    /// `{"incomingCall": {eventId, serverCallId, hasVideo, startedAt, caller, metadata}}`.
    case incomingCallEvent = "incoming-call-event"
    /// A mustache template the operator wrote.
    case template
}
