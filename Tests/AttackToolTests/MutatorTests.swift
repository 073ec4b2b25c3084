import Foundation
import SIPFuzz
import Testing

/// Each mutation class does the damage it is named after, whatever the seed.
@Suite struct MutatorTests {
    static let seeds: [UInt64] = Array(1...25)

    /// The seed message every mutation starts from here: an INVITE with SDP over TCP.
    static func invite(_ seed: UInt64) -> (original: [UInt8], draft: SIPMessageDraft, random: FuzzRandom) {
        var random = FuzzRandom(seed: seed)
        let draft = SeedCorpus.draft(.invite, transport: .tcp, random: &random)
        return (draft.bytes(), draft, random)
    }

    static func mutated(_ kind: MutationKind, seed: UInt64) -> (original: [UInt8], mutated: [UInt8]) {
        var (original, draft, random) = invite(seed)
        return (original, Mutator.mutate(draft, kinds: [kind], transport: .tcp, random: &random))
    }

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    static func occurrences(_ needle: String, in bytes: [UInt8]) -> Int {
        let pattern = Array(needle.utf8)
        guard bytes.count >= pattern.count else { return 0 }
        return (0...(bytes.count - pattern.count)).filter { bytes[$0..<($0 + pattern.count)].elementsEqual(pattern) }.count
    }

    static func headerNames(_ bytes: [UInt8]) -> [String] {
        let head = text(bytes).components(separatedBy: "\r\n\r\n")[0]
        return head.components(separatedBy: "\r\n").dropFirst().compactMap { $0.split(separator: ":").first.map(String.init) }
    }

    /// What each class must have done to the seed, for every seed.
    static func didItsDamage(_ kind: MutationKind, original: [UInt8], mutated: [UInt8]) -> Bool {
        switch kind {
        case .bitFlip:
            return mutated.count == original.count && mutated != original
        case .byteInsert:
            return mutated.count > original.count
        case .byteDelete:
            return mutated.count < original.count
        case .truncate:
            return mutated.count < original.count && Array(original.prefix(mutated.count)) == mutated
        case .duplicateHeader:
            return headerNames(mutated).count > headerNames(original).count
        case .hugeHeader:
            return mutated.count >= original.count + 1024
        case .contentLength:
            let value = text(mutated).components(separatedBy: "\r\nContent-Length: ")[1].components(separatedBy: "\r\n")[0]
            return Mutator.hostileContentLengths.contains(value)
        case .pipeline:
            return occurrences(" SIP/2.0\r\n", in: mutated) + occurrences("\nSIP/2.0 ", in: mutated) >= 2
        case .bareLF:
            return mutated.indices.contains { mutated[$0] == 10 && ($0 == 0 || mutated[$0 - 1] != 13) }
        case .bareCR:
            return mutated.indices.contains { mutated[$0] == 13 && ($0 + 1 == mutated.count || mutated[$0 + 1] != 10) }
        case .crlfFlood:
            return occurrences("\r\n", in: mutated) >= occurrences("\r\n", in: original) + 2
        case .missingFinalCRLF:
            return occurrences("\r\n\r\n", in: mutated) == occurrences("\r\n\r\n", in: original) - 1
        case .leadingWhitespace:
            return [9, 10, 13, 32].contains(mutated[0]) && Array(mutated.suffix(original.count)) == original
        case .requestLineSpaces:
            return text(mutated).components(separatedBy: "\r\n")[0] != text(original).components(separatedBy: "\r\n")[0]
        case .nonUTF8:
            return String(validating: mutated, as: UTF8.self) == nil
        case .nulBytes:
            return mutated.contains(0)
        case .deepVia:
            return occurrences("SIP/2.0/TCP ", in: mutated) >= 11
        case .deepRoute:
            return occurrences("<sip:127.0.0.", in: mutated) >= 10
        case .longParameters:
            return occurrences(";", in: mutated) >= occurrences(";", in: original) + 50
        case .nestedBrackets:
            return ["<<<<<<<<<<", "\"\"\"\"\"\"\"\"\"\"", "\\\"\\\"\\\"\\\"\\\"", "\"<\"<\"<\"<\"<"].contains { occurrences($0, in: mutated) > 0 }
        case .compactHeaders:
            return headerNames(mutated) != headerNames(original)
        case .foldedHeaders:
            return occurrences("\r\n ", in: mutated) + occurrences("\r\n\t", in: mutated) > 0
        case .unknownScheme:
            return occurrences("sip:", in: mutated) != occurrences("sip:", in: original)
        }
    }

    @Test(arguments: MutationKind.allCases)
    func everyClassDoesItsDamage(kind: MutationKind) {
        var changedOnce = false
        for seed in Self.seeds {
            let (original, mutated) = Self.mutated(kind, seed: seed)
            #expect(Self.didItsDamage(kind, original: original, mutated: mutated), "\(kind), seed \(seed): \(Self.text(mutated).prefix(400))")
            changedOnce = changedOnce || mutated != original
        }
        #expect(changedOnce, "\(kind) never changed the seed")
    }

    @Test(arguments: MutationKind.allCases)
    func theSameSeedGivesTheSameBytes(kind: MutationKind) {
        for seed in Self.seeds.prefix(5) {
            #expect(Self.mutated(kind, seed: seed) == Self.mutated(kind, seed: seed))
        }
    }

    @Test func hugeHeadersGoUpToAHundredKilobytes() {
        let sizes = Self.seeds.map { Self.mutated(.hugeHeader, seed: $0).mutated.count }
        #expect(sizes.max()! >= 100_000)
        #expect(sizes.max()! < 110_000)
    }

    @Test func contentLengthsIncludeTheKnownCrashers() {
        for value in ["2147483648", "4294967295", "-1", "99999999999", "abc"] {
            #expect(Mutator.hostileContentLengths.contains(value))
        }
    }

    @Test func pipelinesSometimesTakeTheShapeThatCrashedTheServer() {
        let shaped = Self.seeds.filter { seed in
            let bytes = Self.mutated(.pipeline, seed: seed).mutated
            let text = Self.text(bytes)
            return text.hasPrefix("OPTIONS ") && text.hasSuffix("\r\n\r\nx")
                && ["2147483648", "4294967295"].contains { text.contains("Content-Length: \($0)\r\n") }
        }
        #expect(!shaped.isEmpty)
    }

    @Test func parameterListsNeverRedirectAnswers() {
        for seed in Self.seeds {
            let text = Self.text(Self.mutated(.longParameters, seed: seed).mutated)
            #expect(!text.contains("maddr"))
            #expect(!text.contains("received="))
        }
    }
}
