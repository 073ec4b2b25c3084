/// Where the PostgreSQL database is and who sipwake logs in as. `description`
/// names the server and the database only, never the user's password: it is
/// what logs and errors show.
public struct PostgreSQLLocation: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var username: String
    public var password: String?
    public var database: String

    public init(host: String, port: Int = 5432, username: String, password: String?, database: String) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
    }

    /// `host:port/database`, an IPv6 host in brackets.
    public var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "\(shownHost):\(port)/\(database)"
    }
}
