import Foundation

/// A saved input: its bytes, and from its name `NAME[.cN].TRANSPORT.sip`, how
/// to send it (files with the same `.cN` share one connection).
public struct ReplayFile: Sendable, Equatable {
    public let path: String
    public let transport: FuzzTransport
    public let connection: Int?
    public let bytes: [UInt8]

    public init(path: String) throws {
        let name = (path as NSString).lastPathComponent
        guard let parsed = Self.parse(name: name) else { throw FuzzError.badReplayFile(name) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FuzzError.badReplayFile(path)
        }
        self.path = path
        transport = parsed.transport
        connection = parsed.connection
        bytes = Array(data)
    }

    public var name: String { (path as NSString).lastPathComponent }

    /// "0007.c3.tcp.sip" → (.tcp, 3); "crash.udp.sip" → (.udp, nil).
    public static func parse(name: String) -> (transport: FuzzTransport, connection: Int?)? {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 3, parts.last == "sip", let transport = FuzzTransport(rawValue: String(parts[parts.count - 2])) else {
            return nil
        }
        var connection: Int?
        if parts.count >= 4, parts[parts.count - 3].hasPrefix("c"), let number = Int(parts[parts.count - 3].dropFirst()) {
            connection = number
        }
        return (transport, connection)
    }
}
