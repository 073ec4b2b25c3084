/// Keeps the server from sending anything off the machine because of an input.
///
/// sipwake answers requests at their source address (`rport`, `received`),
/// and the seeds name only loopback addresses, but it forwards a 2xx response
/// to INVITE that matches no transaction to the *second* Via, statelessly
/// (RFC 3261 §16.11, `SIPAgent.strayMessage`). Byte damage to that Via could
/// name a host elsewhere (one bit turns `127.` into `107.` or `027.`), so an
/// input that could be such a response is never sent. The test errs towards
/// refusing: any line that may start a status line, a method name `INVITE`
/// anywhere, and two or more Via entries counted generously.
public enum OutboundSafety {
    public static func isSafe(_ bytes: [UInt8]) -> Bool {
        !(mayBeTwoXXStatusLine(bytes) && contains(bytes, Array("INVITE".utf8)) && viaEntries(bytes) >= 2)
    }

    /// A line that, past leading white space and NULs, starts with `SIP/`
    /// (any case) and whose next token does not start with 1 or 3-9.
    static func mayBeTwoXXStatusLine(_ bytes: [UInt8]) -> Bool {
        for line in lines(bytes) {
            var index = line.startIndex
            while index < line.endIndex, [0, 9, 32].contains(line[index]) { index += 1 }
            guard line.endIndex - index >= 4,
                  lower(line[index]) == UInt8(ascii: "s"), lower(line[index + 1]) == UInt8(ascii: "i"),
                  lower(line[index + 2]) == UInt8(ascii: "p"), line[index + 3] == UInt8(ascii: "/") else { continue }
            // Past the version token and the white space after it.
            while index < line.endIndex, ![9, 32].contains(line[index]) { index += 1 }
            while index < line.endIndex, [9, 32].contains(line[index]) { index += 1 }
            guard index < line.endIndex else { return true }
            let first = line[index]
            if first == UInt8(ascii: "1") || (UInt8(ascii: "3")...UInt8(ascii: "9")).contains(first) { continue }
            return true
        }
        return false
    }

    /// Header lines named Via or v (any case, spaces before the colon), each
    /// counted once plus once per comma in it and in the lines that follow
    /// it starting with white space (folded continuations).
    static func viaEntries(_ bytes: [UInt8]) -> Int {
        var count = 0
        var inVia = false
        // Empty lines (CR and LF split apart, or the end of the headers) do
        // not end a Via: counting too much is safe.
        for line in lines(bytes) where !line.isEmpty {
            let folded = line.first == 9 || line.first == 32
            if folded && inVia {
                count += line.filter { $0 == UInt8(ascii: ",") }.count
                // A continuation may itself look like a Via line: count it too.
            }
            var index = line.startIndex
            while index < line.endIndex, [0, 9, 32].contains(line[index]) { index += 1 }
            var name: [UInt8] = []
            while index < line.endIndex, ![9, 32, UInt8(ascii: ":")].contains(line[index]) {
                name.append(lower(line[index]))
                index += 1
            }
            while index < line.endIndex, [9, 32].contains(line[index]) { index += 1 }
            let isVia = (name == Array("via".utf8) || name == Array("v".utf8)) && index < line.endIndex && line[index] == UInt8(ascii: ":")
            if isVia {
                count += 1 + line.filter { $0 == UInt8(ascii: ",") }.count
                inVia = true
            } else if !folded {
                inVia = false
            }
        }
        return count
    }

    /// Lines split at CR and at LF alike.
    static func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        bytes.split(omittingEmptySubsequences: false) { $0 == 10 || $0 == 13 }
    }

    static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        guard bytes.count >= needle.count else { return false }
        for start in 0...(bytes.count - needle.count) where bytes[start] == needle[0] {
            if Array(bytes[start..<(start + needle.count)]) == needle { return true }
        }
        return false
    }

    static func lower(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }
}
