import ArgumentParser
import Config
import PushSink

/// The `sipwake push-sink` flags read into ``PushSinkSettings``. Device tokens
/// may contain `:` (FCM tokens do), so a status or delay is taken from after
/// the last `:` only, and for `--fail` only when it is all digits.
enum PushSinkArguments {
    /// `HOST:PORT`, IPv6 in brackets; port 0 picks a free port.
    static func listen(_ text: String) throws -> (host: String, port: Int) {
        if let address = HTTPListenAddress(text) { return (address.host, address.port) }
        if text.hasSuffix(":0"), let address = HTTPListenAddress(text.dropLast() + "1") { return (address.host, 0) }
        throw ValidationError("invalid --listen '\(text)': use HOST:PORT, e.g. 127.0.0.1:8090 or [::1]:8090")
    }

    static func path(_ text: String) throws -> String {
        guard text.hasPrefix("/"), !text.contains(where: { $0 == "?" || $0 == "#" || $0.isWhitespace }) else {
            throw ValidationError("invalid --path '\(text)': use an absolute path such as /pnm2/send")
        }
        return text
    }

    static func rule(_ text: String, option: String) throws -> PushSinkRule {
        guard let rule = PushSinkRule(text) else {
            throw ValidationError("invalid \(option) '\(text)': use ok, gone, fail, fail:STATUS (200-599) or slow:MILLISECONDS")
        }
        return rule
    }

    /// `TOKEN` or `TOKEN:STATUS` (500 when left out).
    static func fail(_ text: String) throws -> (token: String, rule: PushSinkRule) {
        let problem = ValidationError("invalid --fail '\(text)': use TOKEN or TOKEN:STATUS with a status from 200 to 599")
        if let (token, suffix) = split(text), !suffix.isEmpty, suffix.allSatisfy({ $0.isASCII && $0.isNumber }) {
            guard !token.isEmpty, let rule = PushSinkRule("fail:\(suffix)") else { throw problem }
            return (token, rule)
        }
        guard !text.isEmpty else { throw problem }
        return (text, .fail(status: 500))
    }

    /// `TOKEN:MILLISECONDS`.
    static func slow(_ text: String) throws -> (token: String, rule: PushSinkRule) {
        guard let (token, suffix) = split(text), !token.isEmpty, suffix.allSatisfy(\.isASCII),
              let rule = PushSinkRule("slow:\(suffix)") else {
            throw ValidationError("invalid --slow '\(text)': use TOKEN:MILLISECONDS, e.g. abc123:4000")
        }
        return (token, rule)
    }

    static func token(_ text: String, option: String) throws -> String {
        guard !text.isEmpty, !text.contains(where: \.isWhitespace) else {
            throw ValidationError("invalid \(option) '\(text)': a device token has no spaces and is not empty")
        }
        return text
    }

    /// The text before and after the last `:`.
    private static func split(_ text: String) -> (String, String)? {
        guard let colon = text.lastIndex(of: ":") else { return nil }
        return (String(text[..<colon]), String(text[text.index(after: colon)...]))
    }
}
