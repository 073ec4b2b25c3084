import Foundation
import Hummingbird
import Logging
import Model
import Ports
import Registrar

/// The admin API under `/admin/v1`: device tuples, registrations, call
/// records (`AdminCallRoutes`) and users (`AdminUserRoutes`), JSON in and out, behind a bearer token
/// (`AdminAuthenticator`, which limits wrong tokens per client address). The
/// contract is docs/openapi.json.
///
/// Every body is decoded and validated before the tuple repository is called, and the
/// store validates again before its transaction, so a refused request writes
/// nothing. `StorageError`s map to 400 (invalid field, unknown user), 404
/// (unknown tuple) and 409 (duplicate username + selector).
struct AdminRoutes {
    let stores: Stores
    let settings: APISettings
    let logger: Logger
    let metrics: APIMetrics
    /// The metrics in Prometheus' text format, served at `GET /metrics`
    /// behind the admin token; nil serves nothing there.
    let exposition: (@Sendable () -> String)?
    /// The calls in progress, from the running SIP server (nil when it is
    /// not running); nil serves nothing at `live-calls`.
    let liveCalls: (@Sendable () async -> [CallRecord]?)?
    let clock: @Sendable () -> Date

    static let prefix = "/admin/v1"
    static let defaultLimit = 100
    static let maxLimit = 1000

    func register<Context: RequestContext>(on router: Router<Context>) {
        // One wrong-token table per router (per client address, `AdminAuthenticator`).
        let limiter = FailedLoginLimiter(limit: settings.adminFailuresPerMinute)
        let authenticator = AdminAuthenticator<Context>(token: settings.adminToken, limiter: limiter,
                                                        clock: clock, logger: logger, metrics: metrics)
        let group = router.group(RouterPath(Self.prefix)).add(middleware: authenticator)
        if let exposition {
            // Prometheus scrapes with the same bearer token (`authorization` in its scrape config).
            router.group(RouterPath("/metrics")).add(middleware: authenticator).get { _, _ in
                Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                         body: ResponseBody(byteBuffer: ByteBuffer(string: exposition())))
            }
        }
        let tuples = stores.tuples
        let bindings = stores.bindings
        let reader = AdminBodyReader(maxBodySize: settings.maxBodySize)
        let logger = self.logger
        let failures = AdminFailureLog(logger: logger, metrics: metrics)
        let clock = self.clock

        group.get("tuples") { request, _ in
            try Self.guarded(failures) {
                let user = request.uri.queryParameters.get("user")
                let limit = try Self.integer(request, "limit", default: Self.defaultLimit, range: 0...Self.maxLimit)
                let offset = try Self.integer(request, "offset", default: 0, range: 0...Int.max)
                let items = try tuples.list(username: user, limit: limit, offset: offset)
                let total = try tuples.count(username: user)
                return APIJSON.response(.ok, AdminPageJSON(
                    items: items.map(DeviceTupleJSON.init), total: total, limit: limit, offset: offset))
            }
        }

        group.get("tuples/{id}") { _, context in
            try Self.guarded(failures) {
                let id = try Self.tupleID(context)
                guard let tuple = try tuples.get(id: id) else { throw Self.noTuple(id) }
                return APIJSON.response(.ok, DeviceTupleJSON(tuple))
            }
        }

        group.post("tuples") { request, _ in
            let body = try APIJSON.decode(AdminTupleBody.self, from: try await reader.read(request))
            return try Self.guarded(failures) {
                let fields = try body.validated(routing: settings.pushRouting)
                let tuple = try tuples.create(
                    username: fields.username, selector: fields.selector,
                    appIDCalls: body.appIDCalls, tokenCalls: body.tokenCalls,
                    appIDOther: body.appIDOther, tokenOther: body.tokenOther,
                    platform: fields.platform, provider: fields.provider, now: clock())
                logger.info("admin created tuple", metadata: ["tuple.id": .stringConvertible(tuple.id), "tuple.username": "\(tuple.username)"])
                return APIJSON.response(.created, DeviceTupleJSON(tuple),
                                          headers: [.location: "\(Self.prefix)/tuples/\(tuple.id)"])
            }
        }

        group.put("tuples/{id}") { request, context in
            let id = try Self.tupleID(context)
            let body = try APIJSON.decode(AdminTupleBody.self, from: try await reader.read(request))
            return try Self.guarded(failures) {
                let fields = try body.validated(routing: settings.pushRouting)
                let tuple = try tuples.update(
                    id: id, username: fields.username, selector: fields.selector,
                    appIDCalls: body.appIDCalls, tokenCalls: body.tokenCalls,
                    appIDOther: body.appIDOther, tokenOther: body.tokenOther,
                    platform: fields.platform, provider: fields.provider)
                logger.info("admin updated tuple", metadata: ["tuple.id": .stringConvertible(tuple.id), "tuple.username": "\(tuple.username)"])
                return APIJSON.response(.ok, DeviceTupleJSON(tuple))
            }
        }

        group.delete("tuples/{id}") { _, context in
            try Self.guarded(failures) {
                let id = try Self.tupleID(context)
                guard try tuples.delete(id: id) else { throw Self.noTuple(id) }
                logger.info("admin deleted tuple", metadata: ["tuple.id": .stringConvertible(id)])
                return Response(status: .noContent)
            }
        }

        group.post("tuples/batch-delete") { request, _ in
            let body = try APIJSON.decode(AdminBatchDeleteBody.self, from: try await reader.read(request))
            return try Self.guarded(failures) {
                let deleted = try tuples.delete(ids: try body.validated())
                logger.info("admin batch-deleted tuples", metadata: ["tuples.requested": .stringConvertible(body.ids.count), "tuples.deleted": .stringConvertible(deleted)])
                return APIJSON.response(.ok, AdminDeletedJSON(deleted: deleted))
            }
        }

        group.delete("tuples") { request, _ in
            try Self.guarded(failures, usernameField: "user") {
                guard let user = request.uri.queryParameters.get("user") else {
                    throw AdminError.badRequest("the user query parameter is required", field: "user")
                }
                let deleted = try tuples.deleteAll(username: user)
                logger.info("admin deleted user's tuples", metadata: ["tuple.username": "\(user)", "tuples.deleted": .stringConvertible(deleted)])
                return APIJSON.response(.ok, AdminDeletedJSON(deleted: deleted))
            }
        }

        AdminCallRoutes(store: stores.callRecords, liveCalls: liveCalls, failures: failures).register(on: group)
        AdminUserRoutes(users: stores.users, realm: settings.realm, reader: reader, failures: failures, logger: logger)
            .register(on: group)

        group.get("registrations") { request, _ in
            try Self.guarded(failures) {
                let now = clock()
                let user = request.uri.queryParameters.get("user")
                let items = try bindings.list(aor: user?.lowercased())
                    .filter { $0.expiresAt > now }
                    .map { BindingJSON($0, now: now) }
                return APIJSON.response(.ok, AdminItemsJSON(items: items))
            }
        }

        // One binding (`user` and `contact`): 204, or 404. All of a user's
        // (`user` alone): 200 with the count. The running SIP server reads
        // the store's deletion feed and stops forking to them.
        group.delete("registrations") { request, _ in
            try Self.guarded(failures, usernameField: "user") {
                guard let user = request.uri.queryParameters.get("user"), !user.isEmpty else {
                    throw AdminError.badRequest("the user query parameter is required", field: "user")
                }
                let aor = user.lowercased()
                guard let contact = request.uri.queryParameters.get("contact") else {
                    let deleted = try bindings.deleteAll(aor: aor)
                    logger.info("admin deleted user's bindings", metadata: ["sip.aor": "\(aor)", "bindings.deleted": .stringConvertible(deleted)])
                    return APIJSON.response(.ok, AdminDeletedJSON(deleted: deleted))
                }
                guard !contact.isEmpty else {
                    throw AdminError.badRequest("contact must not be empty", field: "contact")
                }
                guard try bindings.delete(aor: aor, contact: contact) else {
                    throw AdminError.notFound("no binding of \(aor) with contact \(contact)", field: "contact")
                }
                logger.info("admin deleted binding", metadata: ["sip.aor": "\(aor)", "sip.contact": "\(contact)"])
                return Response(status: .noContent)
            }
        }
    }

    // MARK: - Helpers

    /// Runs a handler body, turning `StorageError`s into admin errors and
    /// anything unexpected into a logged 500 that reveals nothing.
    static func guarded(_ logger: AdminFailureLog, usernameField: String = "username",
                        _ body: () throws -> Response) throws -> Response {
        do {
            return try body()
        } catch let error as AdminError {
            throw error
        } catch let error as StorageError {
            throw refusal(error, usernameField: usernameField, logger: logger)
        } catch {
            logger.internalError("admin request failed", error)
            throw AdminError(.internalServerError, "internal error")
        }
    }

    static func refusal(_ error: StorageError, usernameField: String, logger: AdminFailureLog) -> AdminError {
        switch error {
        case .invalidUsername, .userNotFound:
            return .badRequest(error.description, field: usernameField)
        case .invalidField(let name, let reason):
            let field = AdminTupleBody.jsonName(of: name)
            return .badRequest("invalid \(field): \(reason)", field: field)
        case .tupleExists:
            return AdminError(.conflict, error.description, field: "selector")
        case .tupleNotFound(let id):
            return noTuple(id)
        default:
            logger.internalError("admin storage failure", error)
            return AdminError(.internalServerError, "internal error")
        }
    }

    static func noTuple(_ id: Int64) -> AdminError {
        .notFound("no device tuple with id \(id)", field: "id")
    }

    static func tupleID(_ context: some RequestContext) throws -> Int64 {
        guard let text = context.parameters.get("id"), let id = Int64(text), id > 0 else {
            throw AdminError.badRequest("the tuple id must be a positive integer", field: "id")
        }
        return id
    }

    /// An integer query parameter, `default` when absent; 400 naming it when
    /// it is not an integer in `range`.
    static func integer(_ request: Request, _ name: String, default value: Int, range: ClosedRange<Int>) throws -> Int {
        guard let text = request.uri.queryParameters.get(name) else { return value }
        guard let number = Int(text), range.contains(number) else {
            let upper = range.upperBound == Int.max ? "" : " to \(range.upperBound)"
            throw AdminError.badRequest("\(name) must be an integer from \(range.lowerBound)\(upper)", field: name)
        }
        return number
    }
}
