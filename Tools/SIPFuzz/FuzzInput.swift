/// One input as sent: its bytes, how they travel, and how they were made.
public struct FuzzInput: Sendable, Equatable {
    /// 1, 2, 3… in the order generated.
    public let sequence: Int
    public let transport: FuzzTransport
    /// For TCP and TLS: the fuzzer's number of the connection that carries it.
    /// Inputs with the same number share one connection, in order.
    public let connection: Int?
    public let seed: SeedKind
    public let mutations: [MutationKind]
    public let bytes: [UInt8]

    public init(sequence: Int, transport: FuzzTransport, connection: Int?, seed: SeedKind, mutations: [MutationKind], bytes: [UInt8]) {
        self.sequence = sequence
        self.transport = transport
        self.connection = connection
        self.seed = seed
        self.mutations = mutations
        self.bytes = bytes
    }
}
