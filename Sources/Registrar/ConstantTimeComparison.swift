/// Compares secrets (digest responses, MACs, tokens) without an early exit:
/// the time taken depends on the lengths only, never on how many leading
/// bytes were right, so timing tells an attacker nothing.
public enum ConstantTimeComparison {
    public static func equals(_ given: some StringProtocol, _ expected: some StringProtocol) -> Bool {
        equals(Array(given.utf8), Array(expected.utf8))
    }

    public static func equals(_ given: [UInt8], _ expected: [UInt8]) -> Bool {
        var difference: UInt8 = given.count == expected.count ? 0 : 1
        for index in expected.indices {
            let byte = index < given.count ? given[index] : 0
            difference |= byte ^ expected[index]
        }
        return difference == 0
    }
}
