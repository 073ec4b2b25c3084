import Foundation
import Model
import Mustache

/// The text of a visible notification (a missed call's title or body),
/// written as a Mustache template with the variables of ``PushTemplate``,
/// compiled once when the configuration is read.
///
/// Unlike a payload template, the result is plain text, not JSON: variables
/// are inserted as they are (no JSON or HTML escaping, `{{caller_name}}`
/// and `{{{caller_name}}}` alike), and the provider puts the text into its
/// JSON payload as a string value. Leading and trailing white space and
/// newlines are dropped; a text that renders empty leaves its field out.
public struct PushTextTemplate: Sendable, Equatable {
    /// The operator's text.
    public let source: String
    private let template: MustacheTemplate

    /// Mustache escapes `{{name}}` for HTML unless told the text is plain.
    private static let plainText = "{{% CONTENT_TYPE: TEXT }}"

    /// Compiles `source`; throws when it is not valid Mustache.
    public init(source: String) throws(PushTemplateError) {
        template = try PushTemplate.compile(source, prefix: Self.plainText)
        self.source = source
    }

    /// The text for `message`; empty when the template renders only white space.
    public func render(_ message: PushMessage) -> String {
        template.render(PushTemplate.variables(message, escape: { $0 }))
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    public static func == (lhs: PushTextTemplate, rhs: PushTextTemplate) -> Bool {
        lhs.source == rhs.source
    }
}
