import Foundation
import Model
import Testing

/// Pairing ids and push ids are random version-4 UUIDs: never repeated,
/// and read as UUIDs by the apps that parse them.
@Suite struct UUIDRandomTests {
    @Test func isAVersion4UUIDWithTheRFC4122Variant() {
        for _ in 0..<1000 {
            let text = UUID.random().uuidString
            let bytes = withUnsafeBytes(of: UUID(uuidString: text)!.uuid) { Array($0) }
            #expect(bytes[6] >> 4 == 4)
            #expect(bytes[8] >> 6 == 0b10)
            #expect(Array(text)[14] == "4")
        }
    }

    @Test func neverRepeatsAndUsesEveryRandomBit() {
        var seen = Set<UUID>()
        var ones = [Int](repeating: 0, count: 128)
        for _ in 0..<4000 {
            let uuid = UUID.random()
            seen.insert(uuid)
            withUnsafeBytes(of: uuid.uuid) { bytes in
                for bit in 0..<128 where bytes[bit / 8] & (1 << (bit % 8)) != 0 { ones[bit] += 1 }
            }
        }
        #expect(seen.count == 4000)
        // The 122 random bits are each set about half the time; the 6 fixed ones always or never.
        let fixed: Set<Int> = [6 * 8 + 4, 6 * 8 + 5, 6 * 8 + 6, 6 * 8 + 7, 8 * 8 + 6, 8 * 8 + 7]
        for bit in 0..<128 where !fixed.contains(bit) { #expect((1600...2400).contains(ones[bit]), "bit \(bit)") }
    }
}
