/// What a stream had for us when we looked: bytes, and whether the server
/// closed (or reset) it.
public struct StreamDrain: Sendable, Equatable {
    public var bytes: [UInt8]
    public var closed: Bool

    public init(bytes: [UInt8] = [], closed: Bool = false) {
        self.bytes = bytes
        self.closed = closed
    }
}
