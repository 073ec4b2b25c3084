import Config
import Foundation
import Push

/// The apps of `[apps.*]` that sipwake pushes to directly, with their
/// credential files and templates read and checked: a missing or unreadable
/// file, a key that is not an APNs signing key, a service account without
/// its private key, a template that does not give JSON or a notification
/// text that is not valid Mustache is a `ConfigError`
/// naming the key, so `sipwake config check` and `sipwake serve` say
/// exactly what to fix. Apps of the Acrobits gateway need nothing here.
public enum PushApps {
    /// `file` is the configuration file, named in errors.
    public static func load(_ config: SipwakeConfig, file: String) throws(ConfigError) -> [PushAppSettings] {
        var apps: [PushAppSettings] = []
        for app in config.apps {
            switch app.provider {
            case .acrobits:
                continue
            case .apns:
                let format = try payloadFormat(app, file: file)
                let path = app.keyFile ?? ""
                let pem = try text(of: path, app: app, key: "key_file", file: file)
                do {
                    _ = try APNsSigningKey(pem: pem)
                } catch {
                    throw problem(app, "key_file", file: file,
                                  "'\(path)' is not an APNs token signing key (.p8): \(error.description)")
                }
                apps.append(.apns(APNsSettings(
                    appID: app.appID, signingKeyPEM: pem, keyID: app.keyID ?? "", teamID: app.teamID ?? "",
                    bundleID: app.bundleID ?? "", sandbox: app.sandbox, url: app.url, format: format,
                    notices: try notices(app, file: file))))
            case .fcm:
                let format = try payloadFormat(app, file: file)
                let path = app.serviceAccountFile ?? ""
                let json = try text(of: path, app: app, key: "service_account_file", file: file)
                let account: FCMServiceAccount
                do {
                    account = try FCMServiceAccount(json: Data(json.utf8))
                } catch {
                    throw problem(app, "service_account_file", file: file,
                                  "'\(path)' is not a usable service account: \(error.description)")
                }
                apps.append(.fcm(FCMSettings(appID: app.appID, serviceAccount: account, url: app.url, format: format,
                                             notices: try notices(app, file: file))))
            }
        }
        return apps
    }

    private static func payloadFormat(_ app: AppSection, file: String) throws(ConfigError) -> PushPayloadFormat {
        switch app.format {
        case .acrobits: return .acrobits
        case .incomingCallEvent: return .incomingCallEvent
        case .template:
            let key = app.templateFile == nil ? "template" : "template_file"
            let source = try app.templateFile.map { path throws(ConfigError) in
                try text(of: path, app: app, key: key, file: file)
            } ?? app.template ?? ""
            do {
                return .template(try PushTemplate(source: source))
            } catch {
                throw problem(app, key, file: file, error.description)
            }
        }
    }

    /// The app's end-of-call notifications: `missed_*` over the built-in
    /// missed-call alert, `answered_elsewhere_*` over the silent answer
    /// elsewhere. A template that is not valid Mustache is an error naming
    /// its key; one that is only white space leaves its field out.
    private static func notices(_ app: AppSection, file: String) throws(ConfigError) -> EndOfCallNotices {
        let standard = EndOfCallNotices.standard
        return EndOfCallNotices(
            missed: try notice(app.missed, over: standard.missed, kind: "missed", app: app, file: file),
            answeredElsewhere: try notice(app.answeredElsewhere, over: standard.answeredElsewhere,
                                          kind: "answered_elsewhere", app: app, file: file))
    }

    private static func notice(_ section: AppNoticeSection, over standard: EndOfCallNotice, kind: String,
                               app: AppSection, file: String) throws(ConfigError) -> EndOfCallNotice {
        func template(_ source: String?, _ part: String, _ standard: PushTextTemplate?) throws(ConfigError) -> PushTextTemplate? {
            guard let source else { return standard }
            if source.allSatisfy(\.isWhitespace) { return nil }
            do {
                return try PushTextTemplate(source: source)
            } catch {
                throw problem(app, "\(kind)_\(part)", file: file, error.description)
            }
        }
        // A silent kind given a title only (or a body only) shows that part alone.
        return EndOfCallNotice(
            title: try template(section.title, "title", standard.title),
            body: try template(section.body, "body", standard.body),
            category: section.category ?? standard.category)
    }

    /// The UTF-8 text of a file the app names; at most 1 MiB (keys,
    /// service accounts and templates are a few KiB).
    private static func text(of path: String, app: AppSection, key: String, file: String) throws(ConfigError) -> String {
        let limit = 1 << 20
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw problem(app, key, file: file, "cannot read '\(path)'", kind: .missingFile)
        }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: limit + 1) ?? Data() else {
            throw problem(app, key, file: file, "cannot read '\(path)'", kind: .missingFile)
        }
        guard data.count <= limit else { throw problem(app, key, file: file, "'\(path)' is larger than 1 MiB") }
        guard let text = String(data: data, encoding: .utf8) else {
            throw problem(app, key, file: file, "'\(path)' is not UTF-8 text")
        }
        return text
    }

    private static func problem(_ app: AppSection, _ key: String, file: String, _ message: String,
                                kind: ConfigErrorKind = .invalidValue) -> ConfigError {
        ConfigError(kind: kind, file: file, key: "apps.\(app.name).\(key)", message: "[apps.\(app.name)] \(key): \(message)")
    }
}
