import Foundation
import Model
import Mustache

/// An operator's own push payload: JSON written as a Mustache template,
/// compiled once when the configuration is read. On APNs it renders the whole
/// payload (a missing `aps` is added for the push type); on FCM it renders the
/// `data` object, whose non-string values are turned into strings (`true`,
/// `42`, nested objects as JSON text).
///
/// Variables, all of them for every push:
///
/// - `pairing_id`: the call's pairing id (the INVITE's `X-Push-ID`)
/// - `event`: `incoming-call`, `missed` or `answered-elsewhere`
/// - `event_id`: a fresh UUID for this push (lowercase), for apps that drop duplicates
/// - `caller_name`: the caller's display name, or empty
/// - `caller_number`: the caller's number in E.164 (`+4915112345678`), or empty
/// - `caller_user`: the user part of the caller's URI, or empty
/// - `caller_uri`: the caller's URI as the INVITE's From gave it, or empty
/// - `caller`: the caller as people name them: the display name, else the
///   E.164 number, else the user part; missing when none is known, so that
///   `{{caller}}{{^caller}}Unknown caller{{/caller}}` has a fallback
/// - `callee`: the called user
/// - `media`: `audio` or `video` (empty for endings)
/// - `has_video`: `true` or `false`, unquoted: `"video": {{has_video}}`
/// - `started_at`: when the call reached sipwake, RFC 3339 with milliseconds (`2026-11-22T01:06:13.482Z`)
/// - `sent_at`: when the push was made, RFC 3339 with milliseconds
/// - `timestamp`: when the push was made, Unix seconds, unquoted
/// - `app_id`: the app id the device reported
/// - `selector`: the device's selector
/// - `badge`: the badge number, unquoted; missing when not set, so write
///   `{{#badge}}"badge": {{badge}},{{/badge}}`
/// - `sound`: the sound name, or empty
///
/// Text values are already escaped for the inside of a JSON string
/// (backslashes and control characters escaped, `"<>&'` written as `\u`
/// escapes, so that Mustache's HTML escaping of `{{name}}` has nothing left
/// to change): write
/// them between quotes, `"name": "{{caller_name}}"`, with `{{…}}` or `{{{…}}}`
/// alike. A variable that does not exist renders as nothing.
///
/// The template must render a JSON object. That is checked when it is made,
/// with a sample call whose caller name holds quotes, a backslash and a
/// newline; a template that renders invalid JSON for some later push (a
/// `{{badge}}` left bare when no badge is set) makes that push fail with a
/// clear detail.
public struct PushTemplate: Sendable {
    /// The operator's text.
    public let source: String
    private let template: MustacheTemplate

    /// Compiles `source`; throws when it is not valid Mustache or does not
    /// render a JSON object for a sample call.
    public init(source: String) throws(PushTemplateError) {
        template = try Self.compile(source)
        self.source = source
        if case .failure(let error) = renderObject(Self.sample) {
            throw PushTemplateError("push template does not render a JSON object for a sample call: \(error.description)")
        }
    }

    /// The template rendered for `message`: a JSON object's text.
    public func render(_ message: PushMessage) -> Result<Data, PushTemplateError> {
        renderObject(message).map(\.jsonData)
    }

    /// The template rendered for `message`, read back as a JSON object.
    func renderObject(_ message: PushMessage) -> Result<[String: PushJSONValue], PushTemplateError> {
        let text = template.render(Self.variables(message))
        let value: PushJSONValue
        do {
            value = try JSONDecoder().decode(PushJSONValue.self, from: Data(text.utf8))
        } catch {
            return .failure(PushTemplateError("push template rendered invalid JSON"))
        }
        guard case .object(let object) = value else {
            return .failure(PushTemplateError("push template rendered JSON that is not an object"))
        }
        return .success(object)
    }

    /// `source` compiled; `prefix` is text put before it (a pragma) that
    /// error positions leave out.
    static func compile(_ source: String, prefix: String = "") throws(PushTemplateError) -> MustacheTemplate {
        do {
            return try MustacheTemplate(string: prefix + source)
        } catch let error as MustacheTemplate.ParserError {
            let line = error.context.lineNumber
            let column = line == 1 ? max(1, error.context.columnNumber - prefix.count) : error.context.columnNumber
            throw PushTemplateError("push template syntax error at line \(line), column \(column): \(error.error)")
        } catch {
            throw PushTemplateError("push template syntax error: \(error)")
        }
    }

    /// The variables of `message`, text escaped for the inside of a JSON string.
    static func variables(_ message: PushMessage) -> [String: Any] {
        variables(message, escape: escaped)
    }

    /// The variables of `message`, text passed through `escape` (``escaped``
    /// for JSON templates, nothing for ``PushTextTemplate``).
    static func variables(_ message: PushMessage, escape: (String) -> String) -> [String: Any] {
        var variables: [String: Any] = [
            "pairing_id": escape(message.pairingID),
            "event": escape(message.event.rawValue),
            "event_id": escape(message.eventID.uuidString.lowercased()),
            "caller_name": escape(message.callerDisplayName ?? ""),
            "caller_number": escape(message.callerE164 ?? ""),
            "caller_user": escape(message.callerUser ?? ""),
            "caller_uri": escape(message.callerURI ?? ""),
            "callee": escape(message.callee),
            "media": escape(message.media ?? ""),
            "has_video": message.hasVideo,
            "started_at": ISO8601Time.milliseconds(message.callStartedAt),
            "sent_at": ISO8601Time.milliseconds(message.sentAt),
            "timestamp": Int(message.sentAt.timeIntervalSince1970),
            "app_id": escape(message.appID),
            "selector": escape(message.selector),
            "sound": escape(message.sound ?? ""),
        ]
        if let badge = message.badge { variables["badge"] = badge }
        if let caller = message.callerLabel { variables["caller"] = escape(caller) }
        return variables
    }

    /// `text` as it may stand between the quotes of a JSON string, with the
    /// characters Mustache's HTML escaping would change written as `\u` escapes.
    static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\"", "<", ">", "&", "'":
                out += hexEscape(scalar.value)
            default:
                if scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029 {
                    out += hexEscape(scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    private static func hexEscape(_ value: UInt32) -> String {
        let hex = String(value, radix: 16)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// The call a template is tried with when it is made: every field set,
    /// and a caller name that needs escaping.
    static let sample = PushMessage(
        provider: "template-check", event: .incomingCall, tupleID: 0, appID: "com.example.app",
        deviceToken: "0000", selector: "sample", pairingID: "sample-call@example.com",
        callerDisplayName: "Sample \"Caller\" \\ <&>\nSecond line", callerUser: "+15551234567",
        callerDomain: "example.com", media: "video", badge: 1, sound: "default",
        sentAt: Date(timeIntervalSince1970: 1_700_000_000), callee: "callee",
        callerURI: "sip:+15551234567@example.com", callStartedAt: Date(timeIntervalSince1970: 1_700_000_000),
        eventID: UUID(uuidString: "00000000-0000-4000-8000-000000000000")!)
}
