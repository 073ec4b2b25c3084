import Foundation

/// One line of a call's timeline: a constant event name and its data.
public struct CallEventRecord: Sendable, Equatable, Codable {
    public var at: Date
    /// e.g. `invite received`, `push sent`, `contact registered`, `branch answered`.
    public var event: String
    public var detail: String?

    public init(at: Date, event: String, detail: String? = nil) {
        self.at = at
        self.event = event
        self.detail = detail
    }
}
