import Foundation

/// How an input reaches the target.
public enum FuzzTransport: String, CaseIterable, Sendable, Comparable {
    case udp, tcp, tls

    /// The transport as a Via header names it.
    public var viaName: String { rawValue.uppercased() }

    /// TCP and TLS: inputs go over connections that can carry several.
    public var isStream: Bool { self != .udp }

    /// The largest input this transport carries in one piece: a UDP datagram,
    /// or what the fuzzer allows itself on a stream.
    public var maximumInputSize: Int { self == .udp ? 65_507 : 262_144 }

    public static func < (a: FuzzTransport, b: FuzzTransport) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }

    /// "udp,tcp" → [.udp, .tcp]; nil for an unknown name or an empty list.
    public static func list(_ text: String) -> [FuzzTransport]? {
        let names = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let transports = names.compactMap(FuzzTransport.init(rawValue:))
        guard !transports.isEmpty, transports.count == names.count else { return nil }
        var unique: [FuzzTransport] = []
        for transport in transports where !unique.contains(transport) { unique.append(transport) }
        return unique
    }
}
