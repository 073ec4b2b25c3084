import Foundation

/// Damages seed messages, one `MutationKind` at a time. Pure: the same draft,
/// kinds and random state give the same bytes.
public enum Mutator {
    /// Content-Length values that are too large for 31 or 32 bits, negative,
    /// or not numbers at all.
    public static let hostileContentLengths = [
        "2147483648", "4294967295", "-1", "99999999999", "2147483647", "4294967296",
        "18446744073709551615", "18446744073709551616", "abc", "", "0x10", "1e3", "+5", "5 5",
        "-0", "000000000000000000000000000001", "65536", "1000000",
    ]

    /// Parameter names for long parameter lists. Never `maddr` nor `received`:
    /// those would make the server answer somewhere else than the source.
    static let parameterNames = ["p", "x-fuzz", "transport", "user", "ttl", "method", "lr", "tag", "expires", "q", "ob", "x"]

    static let compactNames: [String: String] = [
        "via": "v", "from": "f", "to": "t", "call-id": "i", "contact": "m", "content-length": "l",
        "content-type": "c", "subject": "s", "supported": "k", "event": "o", "allow-events": "u",
        "refer-to": "r", "content-encoding": "e", "accept-contact": "a", "referred-by": "b",
    ]

    /// Applies `kinds` in stage order: structure, more messages, bytes, truncation.
    public static func mutate(_ draft: SIPMessageDraft, kinds: [MutationKind], transport: FuzzTransport,
                              random: inout FuzzRandom) -> [UInt8] {
        var message = draft
        let ordered = kinds.enumerated().sorted { ($0.element.stage, $0.offset) < ($1.element.stage, $1.offset) }.map(\.element)
        for kind in ordered where kind.stage == .draft {
            apply(kind, to: &message, random: &random)
        }
        var bytes = message.bytes()
        if ordered.contains(.pipeline) {
            bytes = pipeline(after: bytes, transport: transport, random: &random)
        }
        for kind in ordered where kind.stage == .bytes || kind.stage == .last {
            apply(kind, to: &bytes, random: &random)
        }
        return bytes
    }

    // MARK: Structure

    /// A draft-stage mutation; other kinds leave the draft as it is.
    public static func apply(_ kind: MutationKind, to draft: inout SIPMessageDraft, random: inout FuzzRandom) {
        switch kind {
        case .duplicateHeader: duplicateHeader(&draft, &random)
        case .hugeHeader: hugeHeader(&draft, &random)
        case .contentLength: contentLength(&draft, &random)
        case .requestLineSpaces: requestLineSpaces(&draft, &random)
        case .deepVia: deepVia(&draft, &random)
        case .deepRoute: deepRoute(&draft, &random)
        case .longParameters: longParameters(&draft, &random)
        case .nestedBrackets: nestedBrackets(&draft, &random)
        case .compactHeaders: compactHeaders(&draft, &random)
        case .foldedHeaders: foldedHeaders(&draft, &random)
        case .unknownScheme: unknownScheme(&draft, &random)
        default: break
        }
    }

    static func duplicateHeader(_ draft: inout SIPMessageDraft, _ random: inout FuzzRandom) {
        guard !draft.headers.isEmpty else { return }
        let index = random.below(draft.headers.count)
        var copy = draft.headers[index]
        // A second Content-Length, CSeq or Call-ID that disagrees with the first.
        if random.chance(50) {
            switch copy.name.lowercased() {
            case "content-length", "l": copy.value = random.pick(["0", "1", "5", "100", "2147483648"])
            case "cseq": copy.value = "\(random.int(in: 1...99999)) \(random.pick(["INVITE", "REGISTER", "BYE", "FOO"]))"
            case "call-id", "i": copy.value = random.token(10)
            default: break
            }
        }
        let copies = random.pick([1, 1, 2, 5, 50, 500])
        let position = random.chance(50) ? index + 1 : draft.headers.count
        draft.headers.insert(contentsOf: Array(repeating: copy, count: copies), at: position)
    }

    static func hugeHeader(_ draft: inout SIPMessageDraft, _ random: inout FuzzRandom) {
        let size = random.pick([1024, 8192, 32768, 65000, 70000, 102_400])
        let filler = random.chance(50) ? String(repeating: "A", count: size) : String(repeating: random.token(64), count: size / 64)
        if random.chance(40) || draft.headers.isEmpty {
            let name = random.pick(["X-Fuzz", "Subject", "User-Agent", "Organization", "P-Asserted-Identity"])
            draft.headers.insert(DraftHeader(name, filler), at: random.below(draft.headers.count + 1))
        } else {
            let index = random.below(draft.headers.count)
            draft.headers[index].value += filler
        }
    }

    static func contentLength(_ draft: inout SIPMessageDraft, _ random: inout FuzzRandom) {
        let value = random.pick(hostileContentLengths)
        let found = draft.indexes(of: "Content-Length", compact: "l")
        if found.isEmpty {
            draft.headers.append(DraftHeader("Content-Length", value))
        } else {
            for index in found { draft.headers[index].value = value }
        }
        switch random.below(3) {
        case 0: draft.body = []
        case 1: draft.body = [UInt8(ascii: "x")]
        default: break
        }
    }

    static func requestLineSpaces(_ draft: inout SIPMessageDraft, _ random: inout FuzzRandom) {
        let parts = draft.startLine.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        switch random.below(8) {
        case 0: draft.startLine = parts.joined(separator: String(repeating: " ", count: random.int(in: 2...40)))
        case 1: draft.startLine = parts.joined(separator: "\t")
        case 2: draft.startLine += String(repeating: " ", count: random.int(in: 1...20))
        case 3: draft.startLine = parts.dropLast().joined(separator: " ")
        case 4: draft.startLine = draft.startLine.lowercased()
        case 5: draft.startLine = draft.startLine.replacingOccurrences(of: "SIP/2.0", with: random.pick(["SIP/3.0", "SIP/2.00", "SIP/2", "SIP/", "HTTP/1.1"]))
        case 6:
            guard parts.count >= 2 else { return }
            var spaced = parts
            let uri = Array(spaced[1])
            let cut = uri.isEmpty ? 0 : random.below(uri.count)
            spaced[1] = String(uri[..<cut]) + " " + String(uri[cut...])
            draft.startLine = spaced.joined(separator: " ")
        default: draft.startLine = parts.joined(separator: " ") + " EXTRA TOKENS"
        }
    }

    static func deepVia(_ draft: inout SIPMessageDraft, _ random: inout FuzzRandom) {
        let count = random.pick([10, 70, 200, 500])
        let transport = draft.value(of: "Via").flatMap { $0.split(separator: " ").first.map(String.init) } ?? "SIP/2.0/UDP"
        var entries: [String] = []
        for _ in 0..<count {
            entries.append("\(transport) 127.0.0.\(random.int(in: 1...254)):\(random.int(in: 1024...65535));branch=z9hG4bK\(random.token(8))")
        }
        let first = draft.indexes(of: "Via", compact: "v").first ?? 0
        if random.chance(50) {
            draft.headers.insert(contentsOf: entries.map { DraftHeader("Via", $0) }, at: first + 1)
        } else {
            draft.headers.insert(DraftHeader("Via", entries.joined(separator: random.pick([",", ", ", " ,\t"]))), at: first + 1)
        }
    }

    static func deepRoute(_ draft: inout SIPMessageDraft, _ random: inout FuzzRandom) {
        let count = random.pick([10, 70, 200, 500])
        let name = random.pick(["Route", "Record-Route"])
        let entries = (0..<count).map { _ in "<sip:127.0.0.\(random.int(in: 1...254));lr>" }
        let position = random.below(draft.headers.count + 1)
        if random.chance(50) {
            draft.headers.insert(contentsOf: entries.map { DraftHeader(name, $0) }, at: position)
        } else {
            draft.headers.insert(DraftHeader(name, entries.joined(separator: ",")), at: position)
        }
    }

    static func longParameters(_ draft: inout SIPMessageDraft, _ random: inout FuzzRandom) {
        let count = random.pick([50, 300, 2000])
        var parameters = ""
        for _ in 0..<count {
            let name = random.pick(parameterNames)
            switch random.below(4) {
            case 0: parameters += ";\(name)=\(random.token(random.int(in: 1...8)))"
            case 1: parameters += ";\(name)"
            case 2: parameters += ";\(name)="
            default: parameters += ";=\(random.token(3))"
            }
        }
        let targets = ["Via", "Contact", "To", "From"].flatMap { draft.indexes(of: $0) }
        if draft.isResponse == false && (targets.isEmpty || random.chance(30)) {
            var parts = draft.startLine.split(separator: " ", maxSplits: 2).map(String.init)
            guard parts.count == 3 else { return }
            parts[1] += parameters
            draft.startLine = parts.joined(separator: " ")
        } else if let index = targets.isEmpty ? nil : random.pick(targets) {
            var value = draft.headers[index].value
            if random.chance(50), let close = value.firstIndex(of: ">") {
                value.insert(contentsOf: parameters, at: close)
            } else {
                value += parameters
            }
            draft.headers[index].value = value
        }
    }

    static func nestedBrackets(_ draft: inout SIPMessageDraft, _ random: inout FuzzRandom) {
        let depth = random.pick([10, 100, 1000, 5000])
        let nested: String
        switch random.below(5) {
        case 0: nested = String(repeating: "<", count: depth) + "sip:alice@localhost" + String(repeating: ">", count: depth)
        case 1: nested = String(repeating: "<", count: depth) + "sip:alice@localhost"
        case 2: nested = "\"" + String(repeating: "\\\"", count: depth) + "\" <sip:alice@localhost>"
        case 3: nested = String(repeating: "\"", count: depth) + " <sip:alice@localhost>"
        default: nested = String(repeating: "\"<", count: depth) + "sip:alice@localhost" + String(repeating: ">\"", count: depth / 2)
        }
        let targets = ["From", "To", "Contact"].flatMap { draft.indexes(of: $0) }
        if let index = targets.isEmpty ? nil : random.pick(targets) {
            draft.headers[index].value = nested + (random.chance(50) ? ";tag=\(random.token(6))" : "")
        } else {
            draft.headers.append(DraftHeader("Contact", nested))
        }
    }

    static func compactHeaders(_ draft: inout SIPMessageDraft, _ random: inout FuzzRandom) {
        let all = random.chance(50)
        let compactable = draft.headers.indices.filter { compactNames[draft.headers[$0].name.lowercased()] != nil }
        // At least one header changes form, even when chance picks none.
        let forced = compactable.isEmpty ? nil : random.pick(compactable)
        for index in draft.headers.indices where all || index == forced || random.chance(50) {
            let name = draft.headers[index].name
            if let short = compactNames[name.lowercased()] {
                draft.headers[index].name = random.chance(80) ? short : short.uppercased()
            } else if random.chance(30) {
                draft.headers[index].name = random.chance(50) ? name.uppercased() : name.lowercased()
            }
        }
    }

    static func foldedHeaders(_ draft: inout SIPMessageDraft, _ random: inout FuzzRandom) {
        guard !draft.headers.isEmpty else { return }
        for _ in 0..<random.int(in: 1...3) {
            let index = random.below(draft.headers.count)
            var value = Array(draft.headers[index].value)
            let folds = random.pick([1, 1, 2, 10, 100])
            for _ in 0..<folds {
                let fold = Array(random.pick(["\r\n ", "\r\n\t", "\r\n    ", "\r\n \r\n "]))
                value.insert(contentsOf: fold, at: value.isEmpty ? 0 : random.below(value.count + 1))
            }
            draft.headers[index].value = String(value)
        }
    }

    static func unknownScheme(_ draft: inout SIPMessageDraft, _ random: inout FuzzRandom) {
        let scheme = random.pick(["xyz:", "tel:", "sips:", "http:", "urn:uuid:", "im:", "pres:", "mailto:", "", "SIP:", "sip:sip:",
                                  String(repeating: "x", count: 300) + ":"])
        if !draft.isResponse && random.chance(50) {
            var parts = draft.startLine.split(separator: " ", maxSplits: 2).map(String.init)
            guard parts.count == 3 else { return }
            parts[1] = parts[1].hasPrefix("sip:") ? scheme + parts[1].dropFirst(4) : scheme + parts[1]
            draft.startLine = parts.joined(separator: " ")
        } else {
            let targets = ["To", "From", "Contact", "Route", "Record-Route"].flatMap { draft.indexes(of: $0) }
            guard let index = targets.isEmpty ? nil : random.pick(targets) else { return }
            draft.headers[index].value = draft.headers[index].value.replacingOccurrences(of: "sip:", with: scheme)
        }
    }

    // MARK: More messages in one write

    /// The message followed by more in the same write (or datagram). Now and
    /// then in the shape that crashed sipwake before: a valid OPTIONS, this
    /// message, then an OPTIONS announcing a 31- or 32-bit body with one byte.
    public static func pipeline(after first: [UInt8], transport: FuzzTransport, random: inout FuzzRandom) -> [UInt8] {
        if random.chance(30) {
            let valid = SeedCorpus.draft(.options, transport: transport, random: &random).bytes()
            var announcing = SeedCorpus.draft(.options, transport: transport, random: &random)
            announcing.set("Content-Length", random.pick(["2147483648", "4294967295", "2147483647", "99999999999", "-1"]))
            announcing.body = [UInt8(ascii: "x")]
            return valid + first + announcing.bytes()
        }
        var bytes = first
        for _ in 0..<random.int(in: 1...5) {
            var next = SeedCorpus.draft(random.pick(SeedKind.allCases), transport: transport, random: &random)
            if random.chance(50) {
                apply(random.pick([.contentLength, .duplicateHeader, .compactHeaders, .foldedHeaders]), to: &next, random: &random)
            }
            bytes += next.bytes()
        }
        return bytes
    }

    // MARK: Bytes

    /// A byte-stage mutation; other kinds leave the bytes as they are.
    public static func apply(_ kind: MutationKind, to bytes: inout [UInt8], random: inout FuzzRandom) {
        switch kind {
        case .bitFlip:
            guard !bytes.isEmpty else { return }
            for _ in 0..<random.int(in: 1...16) {
                bytes[random.below(bytes.count)] ^= UInt8(1) << UInt8(random.below(8))
            }
        case .byteInsert:
            for _ in 0..<random.int(in: 1...8) {
                let run = (0..<random.int(in: 1...64)).map { _ in random.byte() }
                bytes.insert(contentsOf: run, at: random.below(bytes.count + 1))
            }
        case .byteDelete:
            for _ in 0..<random.int(in: 1...8) where bytes.count > 1 {
                let start = random.below(bytes.count)
                let end = min(bytes.count, start + random.int(in: 1...32))
                bytes.removeSubrange(start..<end)
            }
        case .truncate:
            guard bytes.count > 1 else { return }
            bytes.removeSubrange(random.int(in: 1...(bytes.count - 1))...)
        case .bareLF:
            bytes = replaceLineEnds(bytes, with: [10], all: random.chance(50), random: &random)
        case .bareCR:
            bytes = replaceLineEnds(bytes, with: [13], all: random.chance(50), random: &random)
        case .crlfFlood:
            let flood = Array(repeating: [UInt8]([13, 10]), count: random.pick([2, 100, 1000, 20000])).flatMap { $0 }
            switch random.below(4) {
            case 0: bytes.insert(contentsOf: flood, at: 0)
            case 1: bytes.insert(contentsOf: flood, at: headerEnd(bytes) ?? bytes.count)
            case 2: bytes += flood
            default:
                let starts = lineStarts(bytes)
                bytes.insert(contentsOf: flood, at: starts.isEmpty ? 0 : random.pick(starts))
            }
        case .missingFinalCRLF:
            if let end = headerEnd(bytes) {
                bytes.removeSubrange((end - 2)..<end)
            } else if bytes.suffix(2) == [13, 10] {
                bytes.removeLast(2)
            }
        case .leadingWhitespace:
            bytes.insert(contentsOf: Array(random.pick([" ", "\t", "  \t ", "\r\n", "\n", "\r\n\r\n", " \r\n"]).utf8), at: 0)
        case .nonUTF8:
            let sequences: [[UInt8]] = [[0xFF], [0xFE, 0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0x80],
                                        [0xF8, 0x88, 0x80, 0x80, 0x80], [0xE2, 0x82], [0xE9], [0xF5, 0x80]]
            for _ in 0..<random.int(in: 1...5) {
                bytes.insert(contentsOf: random.pick(sequences), at: random.below(bytes.count + 1))
            }
        case .nulBytes:
            for _ in 0..<random.int(in: 1...5) {
                bytes.insert(0, at: random.below(bytes.count + 1))
            }
        default:
            break
        }
    }

    /// Where the first empty line ends (just past CRLF CRLF).
    static func headerEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4) where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index + 4
        }
        return nil
    }

    static func lineStarts(_ bytes: [UInt8]) -> [Int] {
        var starts: [Int] = []
        for index in bytes.indices where bytes[index] == 10 && index + 1 < bytes.count {
            starts.append(index + 1)
        }
        return starts
    }

    /// Every CRLF, or some of them (at least one), replaced with `ending`.
    static func replaceLineEnds(_ bytes: [UInt8], with ending: [UInt8], all: Bool, random: inout FuzzRandom) -> [UInt8] {
        let ends = bytes.indices.filter { bytes[$0] == 13 && $0 + 1 < bytes.count && bytes[$0 + 1] == 10 }
        guard !ends.isEmpty else { return bytes }
        var chosen = Set(all ? ends : ends.filter { _ in random.chance(30) })
        if chosen.isEmpty { chosen.insert(random.pick(ends)) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if chosen.contains(index) {
                out += ending
                index += 2
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return out
    }
}
