import Testing
@testable import Config

/// One invalid configuration and what its error must say.
struct ValidationCase: Sendable, CustomTestStringConvertible {
    let name: String
    let toml: String
    let kind: ConfigErrorKind
    /// Dotted key the error must name.
    let key: String
    /// Text the description must contain besides the file and the key.
    let mentions: String
    /// Expected line, when the error should carry one.
    let line: Int?

    var testDescription: String { name }
}
