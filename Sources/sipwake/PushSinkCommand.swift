import ArgumentParser
import Foundation
import Glibc
import Logging
import NIOCore
import PushSink
import ServiceLifecycle

struct PushSinkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push-sink",
        abstract: "Run a local push service for labs and tests: the Acrobits gateway, APNs, FCM and Google OAuth; it records every push and answers as told.",
        discussion: """
            Endpoints: POST /pnm2/send (Acrobits gateway), POST /3/device/TOKEN (APNs: needs --apns-key), \
            POST /v1/projects/PROJECT/messages:send (FCM HTTP v1: needs an access token from POST /token), \
            POST /token (Google OAuth: needs --fcm-service-account or --fcm-key), POST /webhook (a customer's \
            backend receiving sipwake's call webhooks: signatures checked with --webhook-secret; the rules go by \
            the event's data.user_id, gone answering 404 "no device for this user"). Plain HTTP unless \
            --tls-cert and --tls-key are given: then HTTPS with HTTP/2 and HTTP/1.1.

            Rules, per device token and for every provider: ok (200), gone (Acrobits 404 NotRegistered, \
            APNs 410 Unregistered, FCM 404 UNREGISTERED), bad (400: APNs BadDeviceToken, FCM INVALID_ARGUMENT), \
            fail[:STATUS] (default 500, in each service's error shape), slow:MILLISECONDS (200, late). Change them \
            while it runs with POST /rules {"token": "...", "rule": "gone"}; read what it got with GET /records. \
            See docs/push.md.
            """)

    @Option(help: "Address to listen on, HOST:PORT (port 0 picks a free one).")
    var listen = "127.0.0.1:8090"
    @Option(help: "Acrobits send path; POSTs to any path under /pnm2/ are taken too.")
    var path = "/pnm2/send"
    @Option(help: "File to append one JSON line per request to, or - for standard output.")
    var output = "-"
    @Option(name: .customLong("gone"), help: ArgumentHelp("Answer this token like an unregistered one (Acrobits 404, APNs 410, FCM 404).", valueName: "token"))
    var goneTokens: [String] = []
    @Option(name: .customLong("bad"), help: ArgumentHelp("Answer this token like one never issued (400: APNs BadDeviceToken, FCM INVALID_ARGUMENT).", valueName: "token"))
    var badTokens: [String] = []
    @Option(name: .customLong("fail"), help: ArgumentHelp("Answer this token with an error status (default 500).", valueName: "token[:status]"))
    var failTokens: [String] = []
    @Option(name: .customLong("slow"), help: ArgumentHelp("Answer this token after a delay.", valueName: "token:ms"))
    var slowTokens: [String] = []
    @Option(name: .customLong("default-rule"), help: ArgumentHelp("Rule for every other token: ok, gone, bad, fail[:STATUS], slow:MS.", valueName: "rule"))
    var defaultRule = "ok"
    @Option(name: .customLong("retry-after"), help: ArgumentHelp("Send Retry-After: SECONDS with APNs' and FCM's 429 and 503 answers.", valueName: "seconds"))
    var retryAfter: String?
    @Option(name: .customLong("tls-cert"), help: ArgumentHelp("PEM certificate (chain) to serve HTTPS with, HTTP/2 and HTTP/1.1 by ALPN; needs --tls-key.", valueName: "file"))
    var tlsCertificate: String?
    @Option(name: .customLong("tls-key"), help: ArgumentHelp("PEM private key of --tls-cert.", valueName: "file"))
    var tlsKey: String?
    @Option(name: .customLong("apns-key"), help: ArgumentHelp("APNs signing key that provider JWTs (ES256) are verified with: the .p8 file or its public key, PEM.", valueName: "file"))
    var apnsKey: String?
    @Option(name: .customLong("apns-key-id"), help: ArgumentHelp("Key id the JWT header's kid must carry (default: any).", valueName: "id"))
    var apnsKeyID: String?
    @Option(name: .customLong("apns-team-id"), help: ArgumentHelp("Team id the JWT's iss must carry (default: any).", valueName: "id"))
    var apnsTeamID: String?
    @Option(name: .customLong("expire-provider-tokens"), help: ArgumentHelp("Answer the first N APNs pushes that pass every check with 403 ExpiredProviderToken, and refuse their JWTs from then on.", valueName: "n"))
    var expireProviderTokens = "0"
    @Option(name: .customLong("fcm-project"), help: ArgumentHelp("Project id FCM sends must name; others get 403 SENDER_ID_MISMATCH (default: any).", valueName: "id"))
    var fcmProject: String?
    @Option(name: .customLong("fcm-service-account"), help: ArgumentHelp("Service-account JSON whose private_key signs OAuth assertions (RS256) and whose client_email must be their iss.", valueName: "file"))
    var fcmServiceAccount: String?
    @Option(name: .customLong("fcm-key"), help: ArgumentHelp("RSA key (PEM, public or private) that OAuth assertions are verified with, instead of --fcm-service-account; any iss.", valueName: "file"))
    var fcmKey: String?
    @Option(name: .customLong("oauth-expires-in"), help: ArgumentHelp("Seconds an issued OAuth access token lives.", valueName: "seconds"))
    var oauthExpiresIn = "3599"
    @Option(name: .customLong("webhook-path"), help: ArgumentHelp("Path call webhooks are posted to.", valueName: "path"))
    var webhookPath = "/webhook"
    @Option(name: .customLong("webhook-secret"), help: ArgumentHelp("A secret webhook signatures are checked with (repeat for a rotation: any one valid signature passes); without it they are recorded, not checked. Lab secrets only: a command line is visible to other users.", valueName: "secret"))
    var webhookSecrets: [String] = []
    @Option(name: .customLong("webhook-tolerance"), help: ArgumentHelp("Seconds a webhook signature's timestamp may be off the sink's clock before it is refused as a replay.", valueName: "seconds"))
    var webhookTolerance = "300"
    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel = "info"

    func validate() throws {
        _ = try settings()
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("invalid --log-level '\(logLevel)': use trace, debug, info, notice, warning, error or critical")
        }
    }

    func settings() throws -> PushSinkSettings {
        let address = try PushSinkArguments.listen(listen)
        var rules: [String: PushSinkRule] = [:]
        for token in goneTokens { rules[try PushSinkArguments.token(token, option: "--gone")] = .gone }
        for token in badTokens { rules[try PushSinkArguments.token(token, option: "--bad")] = .bad }
        for text in failTokens {
            let (token, rule) = try PushSinkArguments.fail(text)
            rules[try PushSinkArguments.token(token, option: "--fail")] = rule
        }
        for text in slowTokens {
            let (token, rule) = try PushSinkArguments.slow(text)
            rules[try PushSinkArguments.token(token, option: "--slow")] = rule
        }
        guard !output.isEmpty else { throw ValidationError("invalid --output '': use a file path or -") }
        var apns = PushSinkAPNsSettings(
            keyID: try apnsKeyID.map { try PushSinkArguments.token($0, option: "--apns-key-id") },
            teamID: try apnsTeamID.map { try PushSinkArguments.token($0, option: "--apns-team-id") },
            expireProviderTokens: try PushSinkArguments.count(
                expireProviderTokens, option: "--expire-provider-tokens", range: 0...1_000_000, unit: "requests"))
        apns.keyPEM = try apnsKey.map(PushSinkArguments.apnsKey)
        var fcm = PushSinkFCMSettings(
            project: try fcmProject.map { try PushSinkArguments.token($0, option: "--fcm-project") },
            accessTokenLifetime: try PushSinkArguments.count(oauthExpiresIn, option: "--oauth-expires-in", range: 1...86_400, unit: "seconds"))
        switch (fcmServiceAccount, fcmKey) {
        case (.some, .some):
            throw ValidationError("--fcm-service-account and --fcm-key are exclusive: give the service-account JSON or a PEM key")
        case (.some(let path), nil):
            let account = try PushSinkArguments.serviceAccount(path)
            fcm.keyPEM = account.privateKeyPEM
            fcm.clientEmail = account.clientEmail
            fcm.tokenURI = account.tokenURI
        case (nil, .some(let path)):
            fcm.keyPEM = try PushSinkArguments.googleKey(path)
        case (nil, nil):
            break
        }
        return PushSinkSettings(
            host: address.host, port: address.port, path: try PushSinkArguments.path(path), output: output,
            rules: rules, defaultRule: try PushSinkArguments.rule(defaultRule, option: "--default-rule"),
            tls: try PushSinkArguments.tls(certificate: tlsCertificate, key: tlsKey), apns: apns, fcm: fcm,
            retryAfter: try retryAfter.map {
                try PushSinkArguments.count($0, option: "--retry-after", range: 0...86_400, unit: "seconds")
            },
            webhook: PushSinkWebhookSettings(
                path: try PushSinkArguments.path(webhookPath, option: "--webhook-path"),
                secrets: try webhookSecrets.map { secret in
                    // The secret itself is never echoed.
                    guard !secret.isEmpty, !secret.contains(where: \.isWhitespace) else {
                        throw ValidationError("invalid --webhook-secret: a secret has no spaces and is not empty")
                    }
                    return secret
                },
                tolerance: try PushSinkArguments.count(webhookTolerance, option: "--webhook-tolerance",
                                                       range: 1...86_400, unit: "seconds")))
    }

    func run() async throws {
        let settings = try settings()
        let level = Logger.Level(rawValue: logLevel) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "sipwake.push-sink")
        let sink = PushSink(settings: settings, logger: logger)
        let group = ServiceGroup(configuration: .init(
            services: [.init(service: sink)], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                do {
                    try await group.run()
                } catch let error as PushSinkError {
                    throw CLIError(error.description)
                } catch let error as IOError {
                    throw CLIError("cannot listen on \(listen): \(String(cString: strerror(error.errnoCode)))")
                } catch {
                    throw CLIError("push sink on \(listen) stopped: \(error)")
                }
            }
            tasks.addTask {
                guard let port = await sink.boundPort else { return }
                let host = settings.host.contains(":") ? "[\(settings.host)]" : settings.host
                FileHandle.standardError.write(Data("push-sink listening on \(settings.scheme)://\(host):\(port)\(settings.path)\n".utf8))
            }
            try await tasks.waitForAll()
        }
    }
}
