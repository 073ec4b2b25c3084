/// What the binding event feed holds after a point: the events, oldest
/// first, and where the next read starts.
public struct BindingEvents: Sendable, Equatable {
    public var events: [BindingEvent]
    /// The last event these cover.
    public var through: Int64
    /// True when events after the asked point are no longer kept: the
    /// reader must load every binding again.
    public var missed: Bool

    public init(events: [BindingEvent], through: Int64, missed: Bool = false) {
        self.events = events
        self.through = through
        self.missed = missed
    }
}
