import Testing

/// One `trusted_peers` entry written in canonical form, and addresses it must
/// and must not match.
struct TrustedPeerCase: Sendable, CustomTestStringConvertible {
    let text: String
    let prefixLength: Int
    let inside: [String]
    let outside: [String]

    var testDescription: String { text }
}
