/// An input and when it went out (MonotonicClock seconds).
public struct SentInput: Sendable, Equatable {
    public let input: FuzzInput
    public let sentAt: Double

    public init(input: FuzzInput, sentAt: Double) {
        self.input = input
        self.sentAt = sentAt
    }
}
