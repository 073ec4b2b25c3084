import Foundation
import Hummingbird
import Logging
import Model
import Ports

/// The SIP users under `/admin/v1/users`: list, add, change password,
/// turn the wake-up hold on or off, remove. The same store calls and checks
/// as `sipwake users …`; the running server reloads its credentials when
/// the users change, and a removed user's bindings leave it through the
/// binding-deletion feed. Registered on the admin group, behind the token.
struct AdminUserRoutes {
    let users: any UserRepository
    /// The SIP realm the HA1s are computed for (`auth.realm`).
    let realm: String
    let reader: AdminBodyReader
    let failures: AdminFailureLog
    let logger: Logger

    func register<Context: RequestContext>(on group: RouterGroup<Context>) {
        let users = self.users
        let realm = self.realm
        let reader = self.reader
        let failures = self.failures
        let logger = self.logger

        group.get("users") { _, _ in
            try Self.guarded(failures) {
                APIJSON.response(.ok, AdminItemsJSON(items: try users.list().map(UserJSON.init)))
            }
        }

        group.post("users") { request, _ in
            let body = try APIJSON.decode(AdminUserBody.self, from: try await reader.read(request))
            return try Self.guarded(failures) {
                let name = try body.requiredUsername()
                let hashes = try body.hashes(username: name, realm: realm)
                let record = try users.add(username: name, realm: realm, ha1MD5: hashes.md5, ha1SHA256: hashes.sha256)
                logger.info("admin added user", metadata: ["user.username": "\(record.username)"])
                return APIJSON.response(.created, UserJSON(record),
                                        headers: [.location: "\(AdminRoutes.prefix)/users/\(record.username)"])
            }
        }

        group.put("users/{username}/password") { request, context in
            let name = try Self.username(context)
            let body = try APIJSON.decode(AdminUserBody.self, from: try await reader.read(request))
            return try Self.guarded(failures) {
                let hashes = try body.hashes(username: name, realm: realm)
                try users.setPassword(username: name, realm: realm, ha1MD5: hashes.md5, ha1SHA256: hashes.sha256)
                logger.info("admin changed user's password", metadata: ["user.username": "\(name)"])
                return Response(status: .noContent)
            }
        }

        group.put("users/{username}/hold") { request, context in
            let name = try Self.username(context)
            let body = try APIJSON.decode(AdminUserBody.self, from: try await reader.read(request))
            return try Self.guarded(failures) {
                let hold = try body.requiredWakeupHold()
                try users.setWakeupHold(username: name, hold)
                guard let record = try users.find(username: name) else { throw StorageError.userNotFound(name) }
                logger.info("admin set user's wake-up hold", metadata: ["user.username": "\(name)", "user.wakeup_hold": "\(hold)"])
                return APIJSON.response(.ok, UserJSON(record))
            }
        }

        group.delete("users/{username}") { _, context in
            try Self.guarded(failures) {
                let name = try Self.username(context)
                try users.remove(username: name)
                logger.info("admin removed user", metadata: ["user.username": "\(name)"])
                return Response(status: .noContent)
            }
        }
    }

    /// `AdminRoutes.guarded`, except that a user named in the path that
    /// does not exist is 404, and one that exists already 409.
    static func guarded(_ failures: AdminFailureLog, _ body: () throws -> Response) throws -> Response {
        try AdminRoutes.guarded(failures) {
            do {
                return try body()
            } catch StorageError.userNotFound(let name) {
                throw AdminError.notFound(StorageError.userNotFound(name).description, field: "username")
            } catch StorageError.userExists(let name) {
                throw AdminError(.conflict, StorageError.userExists(name).description, field: "username")
            }
        }
    }

    static func username(_ context: some RequestContext) throws -> String {
        guard let name = context.parameters.get("username"), !name.isEmpty else {
            throw AdminError.badRequest("the username is missing from the path", field: "username")
        }
        return name.lowercased()
    }
}
