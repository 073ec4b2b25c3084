/// One class of damage the fuzzer does to a seed.
public enum MutationKind: String, CaseIterable, Sendable {
    // Blind byte damage.
    case bitFlip, byteInsert, byteDelete, truncate
    // Structure: headers and framing.
    case duplicateHeader, hugeHeader, contentLength, pipeline
    // Line ends and white space.
    case bareLF, bareCR, crlfFlood, missingFinalCRLF, leadingWhitespace, requestLineSpaces
    // Encodings.
    case nonUTF8, nulBytes
    // Depth.
    case deepVia, deepRoute, longParameters, nestedBrackets
    // Alternative forms.
    case compactHeaders, foldedHeaders, unknownScheme

    /// When a mutation applies: to the message's structure, to the message
    /// stream (more messages), to the bytes, or last of all (truncation).
    public enum Stage: Int, Sendable, Comparable {
        case draft, stream, bytes, last

        public static func < (a: Stage, b: Stage) -> Bool { a.rawValue < b.rawValue }
    }

    public var stage: Stage {
        switch self {
        case .duplicateHeader, .hugeHeader, .contentLength, .requestLineSpaces, .deepVia, .deepRoute,
             .longParameters, .nestedBrackets, .compactHeaders, .foldedHeaders, .unknownScheme:
            return .draft
        case .pipeline:
            return .stream
        case .truncate:
            return .last
        case .bitFlip, .byteInsert, .byteDelete, .bareLF, .bareCR, .crlfFlood, .missingFinalCRLF,
             .leadingWhitespace, .nonUTF8, .nulBytes:
            return .bytes
        }
    }
}
