/// The endless, seeded sequence of inputs: a transport, a seed, up to three
/// mutation classes, and for streams a connection (a new one about four times
/// in ten, else one of the last eight of that transport).
public struct FuzzInputGenerator: Sendable {
    public private(set) var random: FuzzRandom
    public let transports: [FuzzTransport]
    private var sequence = 0
    private var nextConnection = 1
    private var recentConnections: [FuzzTransport: [Int]] = [:]
    /// Inputs made and thrown away because the server could have forwarded
    /// them off the machine (`OutboundSafety`).
    public private(set) var refusedAsUnsafe = 0

    public static let connectionsPerTransport = 8

    public init(seed: UInt64, transports: [FuzzTransport]) {
        precondition(!transports.isEmpty)
        random = FuzzRandom(seed: seed)
        self.transports = transports
    }

    public mutating func next() -> FuzzInput {
        let transport = random.pick(transports)
        var made = make(transport)
        while !OutboundSafety.isSafe(made.bytes) {
            refusedAsUnsafe += 1
            made = make(transport)
        }
        sequence += 1
        return FuzzInput(sequence: sequence, transport: transport, connection: connection(for: transport),
                         seed: made.seed, mutations: made.mutations, bytes: made.bytes)
    }

    private mutating func make(_ transport: FuzzTransport) -> (seed: SeedKind, mutations: [MutationKind], bytes: [UInt8]) {
        let seed = random.pick(SeedKind.allCases)
        let draft = SeedCorpus.draft(seed, transport: transport, random: &random)
        var kinds: [MutationKind] = []
        if !random.chance(5) {
            let count = random.pick([1, 1, 1, 1, 1, 2, 2, 2, 3, 3])
            while kinds.count < count {
                let kind = random.pick(MutationKind.allCases)
                if !kinds.contains(kind) { kinds.append(kind) }
            }
        }
        var bytes = Mutator.mutate(draft, kinds: kinds, transport: transport, random: &random)
        if bytes.count > transport.maximumInputSize {
            bytes.removeSubrange(transport.maximumInputSize...)
        }
        return (seed, kinds, bytes)
    }

    private mutating func connection(for transport: FuzzTransport) -> Int? {
        guard transport.isStream else { return nil }
        var recent = recentConnections[transport, default: []]
        let id: Int
        if recent.isEmpty || random.chance(40) {
            id = nextConnection
            nextConnection += 1
            recent.append(id)
            if recent.count > Self.connectionsPerTransport { recent.removeFirst() }
        } else {
            id = random.pick(recent)
        }
        recentConnections[transport] = recent
        return id
    }
}
