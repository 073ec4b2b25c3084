import Model

/// Which configured app an RFC 8599 Contact's `pn-provider` and `pn-param`
/// name, and the device tuple its `pn-prid` makes. Pure: built once from the
/// `[apps.*]` tables.
///
/// | `pn-provider` | `pn-param` | `pn-prid` |
/// |---|---|---|
/// | `apns` (`apns.dev`: a sandbox build) | `TEAMID.BUNDLE_ID`, optionally followed by `.voip`, `.remote` or Linphone's `.voip&remote` | the VoIP token, or Linphone's `VOIPTOKEN:voip&ALERTTOKEN:remote` |
/// | `fcm` | the Firebase project id (or the `pn_param` the app's table sets, e.g. Linphone's sender id) | the registration token |
///
/// A service sipwake knows (`acrobits`, `apns`, `apns.dev`, `fcm`) that no
/// app table uses is accepted for pairing only: apps built on the Acrobits
/// SDK, or whose tokens reach the customer's backend, report their tokens
/// elsewhere and put the same token in their Contact so that sipwake can
/// tell which device answered. Any other service is unsupported (555), and
/// so is an app a service's tables do not list (a wrong `pn-param` shows).
public struct PNSDirectory: Sendable, Equatable {
    public let apps: [PNSApp]

    /// The services whose devices may be paired with tuples reported elsewhere.
    public static let pairedServices: Set<String> = ["acrobits", "apns", "apns.dev", "fcm"]

    public init(apps: [PNSApp]) {
        self.apps = apps
    }

    /// The `pn-provider` values sipwake pushes directly, sorted (the
    /// `+sip.pns` values a 555 lists).
    public var services: [String] {
        Set(apps.map(\.pns)).sorted()
    }

    /// The longest `pn-prid` taken (a device tuple's token limit), and the
    /// longest `pn-provider`, `pn-param` and `pn-purr`.
    static let pridLimit = 4096
    static let providerLimit = 32
    static let paramLimit = 256
    static let purrLimit = 128

    public func resolve(_ push: SIPPushParameters) -> PNSResolution {
        if let problem = Self.problem(push) { return .invalid(reason: problem) }
        let candidates = apps.filter { $0.pns == push.provider }
        guard !candidates.isEmpty else {
            if Self.pairedServices.contains(push.provider) { return .reported }
            return .unsupported(reason: "no app uses pn-provider \(push.provider)")
        }
        let app: PNSApp
        if let param = push.param {
            let normalized = Self.normalizedParam(param, pns: push.provider)
            guard let match = candidates.first(where: { $0.params.contains(normalized) }) else {
                return .unsupported(reason: "no \(push.provider) app has pn-param \(param)")
            }
            app = match
        } else if candidates.count == 1, let only = candidates.first {
            app = only
        } else {
            return .unsupported(reason: "pn-param is needed to choose among the \(push.provider) apps")
        }
        guard let prid = push.prid else { return .noDevice(reason: "no pn-prid") }
        if app.provider == PNSDirectory.apnsProvider {
            let tokens = Self.apnsTokens(prid, param: push.param)
            guard let voip = tokens.voip else { return .noDevice(reason: "pn-prid has no VoIP token") }
            return .device(PNSDevice(app: app, tokenCalls: voip, tokenOther: tokens.remote, platform: .ios))
        }
        return .device(PNSDevice(app: app, tokenCalls: prid, tokenOther: prid, platform: .android))
    }

    /// Why `push` cannot be taken (the 400's reason phrase), nil when it can: each value printable
    /// ASCII without spaces (it goes into logs, headers and tuples), the
    /// service a name of letters, digits, '.' and '-', and no value longer
    /// than its limit.
    static func problem(_ push: SIPPushParameters) -> String? {
        func printable(_ value: String) -> Bool { value.utf8.allSatisfy { (33...126).contains($0) } }
        guard (1...providerLimit).contains(push.provider.utf8.count),
              push.provider.utf8.allSatisfy({ (97...122).contains($0) || (48...57).contains($0) || $0 == 46 || $0 == 45 })
        else { return "Bad pn-provider" }
        if let prid = push.prid, prid.utf8.count > pridLimit || !printable(prid) { return "Bad pn-prid" }
        if let param = push.param, param.utf8.count > paramLimit || !printable(param) { return "Bad pn-param" }
        if let purr = push.purr, purr.utf8.count > purrLimit || !printable(purr) { return "Bad pn-purr" }
        return nil
    }

    static let apnsProvider = "apns"
    /// APNs services a `pn-param` suffix or a `pn-prid` part may name.
    static let apnsServices: Set<String> = ["voip", "remote", "background"]

    /// `pn-param` as apps are matched by: for APNs, `TEAMID.BUNDLE_ID`
    /// without the trailing services (`.voip`, `.remote`, `.voip&remote`);
    /// otherwise as sent.
    public static func normalizedParam(_ param: String, pns: String) -> String {
        guard pns.lowercased().hasPrefix(apnsProvider) else { return param }
        return apnsParamParts(param).appTopic
    }

    /// `TEAMID.BUNDLE_ID.voip&remote` → (`TEAMID.BUNDLE_ID`, [voip, remote]).
    static func apnsParamParts(_ param: String) -> (appTopic: String, services: [String]) {
        guard let dot = param.lastIndex(of: ".") else { return (param, []) }
        let services = param[param.index(after: dot)...].split(separator: "&").map { $0.lowercased() }
        guard !services.isEmpty, services.allSatisfy({ apnsServices.contains($0) }) else { return (param, []) }
        return (String(param[..<dot]), services)
    }

    /// The VoIP and alert tokens of an APNs `pn-prid`: `TOKEN` alone is of
    /// the first service `pn-param` names (VoIP when it names none);
    /// Linphone's `TOKEN:voip&TOKEN:remote` names each token's service.
    static func apnsTokens(_ prid: String, param: String?) -> (voip: String?, remote: String?) {
        let implied = param.map { apnsParamParts($0).services.first ?? "voip" } ?? "voip"
        var voip: String?, remote: String?
        for part in prid.split(separator: "&") {
            let pieces = part.split(separator: ":", maxSplits: 1)
            let token = String(pieces[0])
            let service = pieces.count == 2 ? pieces[1].lowercased() : implied
            guard !token.isEmpty else { continue }
            switch service {
            case "voip": voip = voip ?? token
            case "remote", "background": remote = remote ?? token
            default: continue
            }
        }
        return (voip, remote)
    }
}
