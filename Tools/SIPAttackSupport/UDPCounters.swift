import Foundation

/// The machine's UDP counters from /proc/net/snmp: datagrams that arrived at
/// a full receive buffer and were dropped, by anyone (the server or us).
public struct UDPCounters: Sendable, Equatable {
    public var inDatagrams: Int
    public var receiveBufferErrors: Int

    public init(inDatagrams: Int, receiveBufferErrors: Int) {
        self.inDatagrams = inDatagrams
        self.receiveBufferErrors = receiveBufferErrors
    }

    /// Nil where /proc/net/snmp cannot be read.
    public static func read() -> UDPCounters? {
        guard let text = try? String(contentsOfFile: "/proc/net/snmp", encoding: .utf8) else { return nil }
        return parse(text)
    }

    /// The two "Udp:" lines: names, then values.
    public static func parse(_ text: String) -> UDPCounters? {
        let lines = text.split(separator: "\n").filter { $0.hasPrefix("Udp:") }
        guard lines.count >= 2 else { return nil }
        let names = lines[0].split(separator: " ").dropFirst()
        let values = lines[1].split(separator: " ").dropFirst().compactMap { Int($0) }
        var table: [Substring: Int] = [:]
        for (name, value) in zip(names, values) { table[name] = value }
        guard let received = table["InDatagrams"], let errors = table["RcvbufErrors"] else { return nil }
        return UDPCounters(inDatagrams: received, receiveBufferErrors: errors)
    }
}
