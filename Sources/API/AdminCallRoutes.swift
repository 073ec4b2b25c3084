import Foundation
import Hummingbird
import Logging
import Model
import Ports

/// The call records under `/admin/v1/calls`: a page of records, newest
/// first, and one record found by its id, pairing id or Call-ID; and under
/// `/admin/v1/live-calls` the calls in progress now, from the running SIP
/// server. Read-only; registered on the admin group, so behind the same
/// bearer token.
struct AdminCallRoutes {
    let store: any CallRecordArchive
    let liveCalls: (@Sendable () async -> [CallRecord]?)?
    let failures: AdminFailureLog

    /// Records hold whole timelines: pages are smaller than tuple pages.
    static let defaultLimit = 50
    static let maxLimit = 200

    func register<Context: RequestContext>(on group: RouterGroup<Context>) {
        let store = self.store
        let failures = self.failures

        group.get("calls") { request, _ in
            try AdminRoutes.guarded(failures) {
                let user = request.uri.queryParameters.get("user")
                let outcome = try Self.outcome(request)
                let limit = try AdminRoutes.integer(request, "limit", default: Self.defaultLimit, range: 0...Self.maxLimit)
                let offset = try AdminRoutes.integer(request, "offset", default: 0, range: 0...Int.max)
                let items = try store.list(callee: user, outcome: outcome, limit: limit, offset: offset)
                let total = try store.count(callee: user, outcome: outcome)
                return APIJSON.response(.ok, AdminPageJSON(
                    items: items.map(CallRecordJSON.init), total: total, limit: limit, offset: offset))
            }
        }

        if let liveCalls {
            // Its own path: under calls/ it would hide a call whose id is "live".
            group.get("live-calls") { _, _ in
                guard let records = await liveCalls() else {
                    throw AdminError(.serviceUnavailable, "the SIP server is not running")
                }
                return APIJSON.response(.ok, AdminItemsJSON(items: records.map(CallRecordJSON.init)))
            }
        }

        group.get("calls/{id}") { _, context in
            try AdminRoutes.guarded(failures) {
                // Hummingbird hands the path segment over as sent: a Call-ID
                // may carry characters a client has to percent-encode.
                let raw = context.parameters.get("id") ?? ""
                let key = raw.removingPercentEncoding ?? raw
                guard let record = try store.find(key) else {
                    throw AdminError.notFound("no call with record id, pairing id or Call-ID '\(key)'", field: "id")
                }
                return APIJSON.response(.ok, CallRecordJSON(record))
            }
        }
    }

    /// The `outcome` query parameter; nil when absent, 400 naming it when unknown.
    static func outcome(_ request: Request) throws -> CallOutcome? {
        guard let text = request.uri.queryParameters.get("outcome") else { return nil }
        guard let outcome = CallOutcome(name: text) else {
            throw AdminError.badRequest("outcome must be one of \(CallOutcome.names)", field: "outcome")
        }
        return outcome
    }
}
