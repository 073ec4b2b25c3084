/// The fuzzer's only source of randomness: xoshiro256** seeded through
/// SplitMix64, with its own range functions, so that one `--seed` gives the
/// same inputs on every machine and every Swift version.
public struct FuzzRandom: RandomNumberGenerator, Sendable {
    private var s0: UInt64
    private var s1: UInt64
    private var s2: UInt64
    private var s3: UInt64

    public init(seed: UInt64) {
        var mix = seed
        func splitMix() -> UInt64 {
            mix &+= 0x9E37_79B9_7F4A_7C15
            var z = mix
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        s0 = splitMix()
        s1 = splitMix()
        s2 = splitMix()
        s3 = splitMix()
    }

    public mutating func next() -> UInt64 {
        let result = ((s1 &* 5) << 7 | (s1 &* 5) >> 57) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = s3 << 45 | s3 >> 19
        return result
    }

    /// 0 ..< count.
    public mutating func below(_ count: Int) -> Int {
        precondition(count > 0)
        return Int(next() % UInt64(count))
    }

    public mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.upperBound - range.lowerBound + 1)
    }

    /// True `percent` times in a hundred.
    public mutating func chance(_ percent: Int) -> Bool {
        below(100) < percent
    }

    public mutating func pick<T>(_ items: [T]) -> T {
        items[below(items.count)]
    }

    public mutating func byte() -> UInt8 {
        UInt8(truncatingIfNeeded: next())
    }

    /// Lower-case letters and digits, for branches, tags and Call-IDs.
    public mutating func token(_ length: Int) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        return String((0..<length).map { _ in alphabet[below(alphabet.count)] })
    }

    /// Lower-case hexadecimal digits.
    public mutating func hex(_ length: Int) -> String {
        let alphabet = Array("0123456789abcdef")
        return String((0..<length).map { _ in alphabet[below(alphabet.count)] })
    }
}
