import Foundation

/// `[database] url`: a PostgreSQL server, database and login,
/// `postgres://USER:PASSWORD@HOST:PORT/DATABASE` (`postgresql://` too; the
/// port defaults to 5432; user and password percent-encoded where they hold
/// `@`, `:` or `/`). `description` leaves the password out: it is what logs
/// and errors show.
public struct DatabaseURL: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var username: String
    public var password: String?
    public var database: String

    public init(host: String, port: Int, username: String, password: String?, database: String) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
    }

    /// Parses `text`; the error says what is wrong and never repeats the text
    /// (it may hold a password).
    public static func parse(_ text: String) -> Result<DatabaseURL, DatabaseURLError> {
        let expected = "expected postgres://USER:PASSWORD@HOST:PORT/DATABASE"
        guard let components = URLComponents(string: text),
              let scheme = components.scheme?.lowercased() else {
            return .failure(DatabaseURLError(reason: "not a URL: \(expected)"))
        }
        guard scheme == "postgres" || scheme == "postgresql" else {
            return .failure(DatabaseURLError(reason: "the scheme must be postgres:// or postgresql://"))
        }
        guard components.query == nil, components.fragment == nil else {
            return .failure(DatabaseURLError(reason: "options after '?' or '#' are not supported: \(expected)"))
        }
        var host = components.host ?? ""
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, HostSyntax.bareHost(host) != nil || HostSyntax.bareHost("[\(host)]") != nil else {
            return .failure(DatabaseURLError(reason: "no valid host: \(expected)"))
        }
        guard let username = components.user, !username.isEmpty else {
            return .failure(DatabaseURLError(reason: "no user: \(expected)"))
        }
        let port = components.port ?? 5432
        guard (1...65535).contains(port) else {
            return .failure(DatabaseURLError(reason: "the port must be 1 to 65535"))
        }
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        guard !path.isEmpty, !path.contains("/") else {
            return .failure(DatabaseURLError(reason: "no database name after the host: \(expected)"))
        }
        return .success(DatabaseURL(host: host, port: port, username: username, password: components.password,
                                    database: path))
    }

    /// `host:port/database`, without the user and the password.
    public var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "\(shownHost):\(port)/\(database)"
    }
}
