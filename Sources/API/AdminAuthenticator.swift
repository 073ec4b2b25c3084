import Foundation
import Hummingbird
import Logging

/// Guards every admin route: 404 when no admin token is configured (the admin
/// API is off by default), 401 with a Bearer challenge unless the request
/// carries `Authorization: Bearer <token>`, compared in constant time.
struct AdminAuthenticator<Context: RequestContext>: RouterMiddleware {
    /// nil (or empty) switches the admin API off.
    let token: String?
    let logger: Logger

    static var challenge: HTTPFields {
        [.wwwAuthenticate: "Bearer realm=\"sipwake-admin\""]
    }

    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let token, !token.isEmpty else {
            throw AdminError.notFound("admin API disabled")
        }
        guard let presented = Self.bearer(request.headers[.authorization]) else {
            logger.notice("admin request without bearer token", metadata: ["path": "\(request.uri.path)"])
            throw AdminError(.unauthorized, "missing bearer token", headers: Self.challenge)
        }
        guard Self.constantTimeEqual(Array(presented.utf8), Array(token.utf8)) else {
            logger.warning("admin request with wrong bearer token", metadata: ["path": "\(request.uri.path)"])
            throw AdminError(.unauthorized, "wrong bearer token", headers: Self.challenge)
        }
        return try await next(request, context)
    }

    /// The credentials of `Bearer <token>` (scheme case-insensitive), or nil.
    static func bearer(_ header: String?) -> String? {
        guard let header else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let credentials = parts[1].trimmingCharacters(in: .whitespaces)
        return credentials.isEmpty ? nil : credentials
    }

    /// Time depends on the length of `expected` only, never on where the
    /// first difference is.
    static func constantTimeEqual(_ given: [UInt8], _ expected: [UInt8]) -> Bool {
        var difference = UInt8(truncatingIfNeeded: given.count ^ expected.count)
        difference |= given.count == expected.count ? 0 : 1
        for index in expected.indices {
            let byte = index < given.count ? given[index] : 0
            difference |= byte ^ expected[index]
        }
        return difference == 0
    }
}
