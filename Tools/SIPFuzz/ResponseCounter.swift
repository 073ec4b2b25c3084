/// Counts SIP responses in what came back: "SIP/2.0 " at the start of the
/// bytes or of a line.
public enum ResponseCounter {
    static let marker = Array("SIP/2.0 ".utf8)

    public static func count(_ bytes: [UInt8]) -> Int {
        guard bytes.count >= marker.count else { return 0 }
        var found = 0
        for start in 0...(bytes.count - marker.count) where (start == 0 || bytes[start - 1] == 10) && bytes[start] == marker[0] {
            if bytes[start..<(start + marker.count)].elementsEqual(marker) { found += 1 }
        }
        return found
    }
}
