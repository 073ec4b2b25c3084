import ArgumentParser
import Config
import Foundation
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

    static func path(_ text: String, option: String = "--path") throws -> String {
        guard text.hasPrefix("/"), !text.contains(where: { $0 == "?" || $0 == "#" || $0.isWhitespace }) else {
            throw ValidationError("invalid \(option) '\(text)': use an absolute path such as /pnm2/send")
        }
        return text
    }

    static func rule(_ text: String, option: String) throws -> PushSinkRule {
        guard let rule = PushSinkRule(text) else {
            throw ValidationError("invalid \(option) '\(text)': use ok, gone, bad, fail, fail:STATUS (200-599) or slow:MILLISECONDS")
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

    /// A whole number of seconds or requests from `range`.
    static func count(_ text: String, option: String, range: ClosedRange<Int>, unit: String) throws -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw ValidationError("invalid \(option) '\(text)': use a whole number of \(unit) from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// The text of a file an option names.
    static func file(_ path: String, option: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValidationError("invalid \(option) '\(path)': cannot read the file")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// `--tls-cert` and `--tls-key`: both or neither, and a key that fits the certificate.
    static func tls(certificate: String?, key: String?) throws -> PushSinkTLSFiles? {
        switch (certificate, key) {
        case (nil, nil): return nil
        case (.some, nil): throw ValidationError("--tls-cert needs --tls-key: give the PEM private key of the certificate")
        case (nil, .some): throw ValidationError("--tls-key needs --tls-cert: give the PEM certificate (chain) of the key")
        case (.some(let certificate), .some(let key)):
            let files = PushSinkTLSFiles(certificate: certificate, key: key)
            do {
                _ = try files.serverConfiguration()
            } catch {
                throw ValidationError("invalid --tls-cert/--tls-key: \(error.description)")
            }
            return files
        }
    }

    /// `--apns-key FILE`: the PEM text, once it reads as a P-256 key.
    static func apnsKey(_ path: String) throws -> String {
        let pem = try file(path, option: "--apns-key")
        do {
            _ = try PushSinkKeys.apnsKey(pem: pem)
        } catch {
            throw ValidationError("invalid --apns-key '\(path)': \(error.description); use the .p8 file or its public key")
        }
        return pem
    }

    /// `--fcm-service-account FILE`: the account, once its private key reads as RSA.
    static func serviceAccount(_ path: String) throws -> PushSinkServiceAccount {
        let account: PushSinkServiceAccount
        do {
            account = try PushSinkServiceAccount(json: Data(try file(path, option: "--fcm-service-account").utf8))
            _ = try PushSinkKeys.googleKey(pem: account.privateKeyPEM)
        } catch let error as PushSinkError {
            throw ValidationError("invalid --fcm-service-account '\(path)': \(error.description); use a service-account JSON key file")
        }
        return account
    }

    /// `--fcm-key FILE`: the PEM text, once it reads as an RSA key.
    static func googleKey(_ path: String) throws -> String {
        let pem = try file(path, option: "--fcm-key")
        do {
            _ = try PushSinkKeys.googleKey(pem: pem)
        } catch {
            throw ValidationError("invalid --fcm-key '\(path)': \(error.description)")
        }
        return pem
    }

    /// The text before and after the last `:`.
    private static func split(_ text: String) -> (String, String)? {
        guard let colon = text.lastIndex(of: ":") else { return nil }
        return (String(text[..<colon]), String(text[text.index(after: colon)...]))
    }
}
