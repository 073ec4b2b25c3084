/// One header line of a `SIPMessageDraft`, written as `name: value`. The value
/// may hold anything, folded continuation lines included.
public struct DraftHeader: Sendable, Equatable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}
