import Foundation
import Hummingbird
import Logging
import Model
import Ports

/// The Push Token Reporter (`GET|POST /push/report`) and Account Removal
/// Reporter (`GET|POST /push/remove`) endpoints.
///
/// Each call goes: read the query string and body (415, 413, 400) → check
/// the fields (400) → the failed-login limit of (address, user) (429) →
/// authenticate (401, 403) → one
/// tuple repository transaction for the authenticated account. Nothing is
/// written unless every step before passed. See docs/reporter.md.
struct ReporterRoutes: Sendable {
    let tuples: any TupleRepository
    let settings: APISettings
    let logger: Logger
    let metrics: APIMetrics
    let clock: @Sendable () -> Date
    /// Holds this router's failed-login table (`FailedLoginLimiter`, per
    /// address and user): one per set of routes, no global state.
    let authenticator: ReporterAuthenticator

    init(stores: Stores, settings: APISettings, logger: Logger, metrics: APIMetrics,
         clock: @escaping @Sendable () -> Date) {
        self.tuples = stores.tuples
        self.settings = settings
        self.logger = logger
        self.metrics = metrics
        self.clock = clock
        self.authenticator = ReporterAuthenticator(
            users: stores.users, settings: settings,
            limiter: FailedLoginLimiter(limit: settings.failedLoginsPerMinute), logger: logger, metrics: metrics,
            startedAt: clock())
    }

    /// Works with any context; failed logins are counted per client address
    /// (and user) only when the context knows the address (`ClientAddress`).
    /// Without it, every client shares one count per user.
    func register<Context: RequestContext>(on router: Router<Context>) {
        let report: @Sendable (Request, Context) async throws -> Response = { request, context in
            await handle(request, context, kind: .report)
        }
        let remove: @Sendable (Request, Context) async throws -> Response = { request, context in
            await handle(request, context, kind: .remove)
        }
        router.get("/push/report", use: report)
        router.post("/push/report", use: report)
        router.get("/push/remove", use: remove)
        router.post("/push/remove", use: remove)
    }

    private enum Kind: String {
        case report
        case remove
    }

    private func handle<Context: RequestContext>(_ request: Request, _ context: Context, kind: Kind) async -> Response {
        let address = ClientAddress.of(context)
        do {
            return try await answer(request, kind: kind, address: address)
        } catch let error as APIError {
            logger.debug("reporter call refused", metadata: [
                "http.path": "\(request.uri.path)", "http.status": .stringConvertible(error.status.code),
                "reporter.field": "\(error.field ?? "-")", "client.address": "\(address)",
            ])
            return error.response()
        } catch {
            metrics.internalErrors.increment()
            logger.warning("reporter call failed", metadata: [
                "http.path": "\(request.uri.path)", "error": "\(error)", "client.address": "\(address)",
            ])
            return APIError(.internalServerError, "internal error").response()
        }
    }

    private func answer(_ request: Request, kind: Kind, address: String) async throws -> Response {
        let pairs = try await ReporterPayload.pairs(of: request, maxBodySize: settings.maxBodySize)
        let fields = try kind == .report ? ReporterRequest.report(pairs) : ReporterRequest.removal(pairs)
        let now = clock()
        let account = try authenticator.authenticate(
            fields, method: request.method.rawValue, uri: request.uri.description, path: request.uri.path,
            authorization: request.headers[.authorization], address: address, now: now)
        // Only after authentication: which app ids this server pushes to is
        // no business of an anonymous caller.
        var provider: String?
        if kind == .report {
            switch settings.pushRouting.provider(appIDCalls: fields.appIDCalls, appIDOther: fields.appIDOther,
                                                 requested: fields.provider) {
            case .success(let chosen): provider = chosen
            case .failure(let refusal): throw Self.apiError(refusal)
            }
        }
        switch kind {
        case .report:
            let written: (tuple: DeviceTuple, created: Bool)
            do {
                written = try tuples.report(
                    username: account, selector: fields.selector,
                    appIDCalls: fields.appIDCalls, tokenCalls: fields.tokenCalls,
                    appIDOther: fields.appIDOther, tokenOther: fields.tokenOther,
                    platform: fields.platform, provider: provider, now: now)
            } catch let error as StorageError {
                throw Self.apiError(error)
            }
            logger.debug("push token reported", metadata: [
                "sip.user": "\(account)", "tuple.id": .stringConvertible(written.tuple.id), "tuple.created": "\(written.created)",
                "tuple.token_calls": "\(Self.redacted(written.tuple.tokenCalls))",
                "tuple.token_other": "\(Self.redacted(written.tuple.tokenOther))",
            ])
            return Self.reported(written.tuple, created: written.created)
        case .remove:
            let removed: Bool
            do {
                removed = try tuples.remove(username: account, selector: fields.selector)
            } catch let error as StorageError {
                throw Self.apiError(error)
            }
            logger.debug("account removal reported", metadata: ["sip.user": "\(account)", "tuple.removed": "\(removed)"])
            return Self.removal(removed: removed)
        }
    }

    /// An app id no provider reaches, or a provider that does not reach it.
    private static func apiError(_ refusal: PushRouting.Refusal) -> APIError {
        let wire = ["appIDCalls": "pushappid_incoming_call", "appIDOther": "pushappid_other"][refusal.field] ?? refusal.field
        return APIError(.badRequest, refusal.reason, field: wire)
    }

    /// The store validates again; its refusals name its own fields, mapped
    /// back to the wire names.
    private static func apiError(_ error: StorageError) -> APIError {
        switch error {
        case .invalidField(let name, let reason):
            let wire = ["selector": "selector", "appIDCalls": "pushappid_incoming_call",
                        "tokenCalls": "pushTokenIncomingCall", "appIDOther": "pushappid_other",
                        "tokenOther": "pushTokenOther"][name] ?? name
            return APIError(.badRequest, "invalid \(wire): \(reason)", field: wire)
        case .invalidUsername:
            return APIError(.badRequest, "username is not a valid SIP user name", field: "username")
        case .userNotFound:
            // The account was authenticated a moment ago and removed since.
            return APIError(.unauthorized, "wrong username or password")
        default:
            return APIError(.internalServerError, "internal error")
        }
    }

    /// The 200 answer: `{"status":"ok","created":…,"tuple":{…}}` for a report
    /// (the tuple as the admin API shows it), `{"status":"ok","removed":…}` for
    /// a removal.
    private static func reported(_ tuple: DeviceTuple, created: Bool) -> Response {
        APIJSON.response(.ok, ReporterAnswerJSON(created: created, tuple: DeviceTupleJSON(tuple), removed: nil))
    }

    private static func removal(removed: Bool) -> Response {
        APIJSON.response(.ok, ReporterAnswerJSON(created: nil, tuple: nil, removed: removed))
    }

    /// First 8 characters of a token: enough to tell tokens apart in a log,
    /// not enough to push to the phone.
    private static func redacted(_ token: String?) -> String {
        guard let token else { return "-" }
        return token.count <= 8 ? "…" : String(token.prefix(8)) + "…"
    }
}
