import SIPFuzz
import Testing

@Suite struct FuzzInputGeneratorTests {
    static func inputs(seed: UInt64, count: Int, transports: [FuzzTransport] = FuzzTransport.allCases) -> [FuzzInput] {
        var generator = FuzzInputGenerator(seed: seed, transports: transports)
        return (0..<count).map { _ in generator.next() }
    }

    @Test func theSameSeedGivesTheSameInputs() {
        #expect(Self.inputs(seed: 42, count: 300) == Self.inputs(seed: 42, count: 300))
    }

    @Test func anotherSeedGivesOtherInputs() {
        let a = Self.inputs(seed: 42, count: 50).map(\.bytes)
        let b = Self.inputs(seed: 43, count: 50).map(\.bytes)
        #expect(a != b)
        #expect(zip(a, b).filter { $0 == $1 }.count < 5)
    }

    @Test func aLongRunUsesEveryClassSeedAndTransport() {
        let inputs = Self.inputs(seed: 7, count: 3000)
        let kinds = Set(inputs.flatMap(\.mutations))
        #expect(kinds == Set(MutationKind.allCases), "missing: \(Set(MutationKind.allCases).subtracting(kinds))")
        #expect(Set(inputs.map(\.seed)) == Set(SeedKind.allCases))
        #expect(Set(inputs.map(\.transport)) == Set(FuzzTransport.allCases))
        #expect(inputs.contains { $0.mutations.isEmpty }, "some seeds go out valid")
        #expect(inputs.contains { $0.mutations.count == 3 })
        #expect(inputs.map(\.sequence) == Array(1...3000))
    }

    @Test func datagramsFitAndStreamsNameTheirConnection() {
        for input in Self.inputs(seed: 9, count: 2000) {
            #expect(input.bytes.count <= input.transport.maximumInputSize)
            #expect((input.connection != nil) == input.transport.isStream)
        }
    }

    @Test func streamInputsShareConnectionsAndOpenNewOnes() {
        let tcp = Self.inputs(seed: 11, count: 500, transports: [.tcp]).compactMap(\.connection)
        let distinct = Set(tcp)
        #expect(distinct.count > 50)
        #expect(distinct.count < 400)
        #expect(tcp.first == 1)
    }

    @Test func everyInputItMakesIsSafeToSend() {
        var generator = FuzzInputGenerator(seed: 5, transports: [.udp])
        for _ in 0..<2000 {
            #expect(OutboundSafety.isSafe(generator.next().bytes))
        }
        #expect(generator.refusedAsUnsafe > 0, "some 2xx answers to INVITE with many Vias were made and dropped")
    }

    @Test func randomNumbersAreTheSameOnEveryMachine() {
        // xoshiro256** seeded by SplitMix64, computed apart from this code: a
        // --seed must mean the same inputs on any build, so these never change.
        var random = FuzzRandom(seed: 1)
        #expect((0..<4).map { _ in random.next() } == [
            0xB3F2_AF6D_0FC7_10C5, 0x853B_5596_4736_4CEA, 0x92F8_9756_082A_4514, 0x642E_1C7B_C266_A3A7,
        ])
        var ranged = FuzzRandom(seed: 1)
        #expect((0..<4).map { _ in ranged.below(100) } == [57, 22, 0, 83])
        var other = FuzzRandom(seed: 2)
        #expect(other.next() != 0xB3F2_AF6D_0FC7_10C5)
    }

    @Test(arguments: [("udp,tcp", [FuzzTransport.udp, .tcp]), ("tls", [.tls]), ("TCP, udp,tcp", [.tcp, .udp])])
    func transportListsParse(text: String, expected: [FuzzTransport]) {
        #expect(FuzzTransport.list(text) == expected)
    }

    @Test(arguments: ["", "udp,sctp", "ws", ","])
    func badTransportListsAreRefused(text: String) {
        #expect(FuzzTransport.list(text) == nil)
    }
}
