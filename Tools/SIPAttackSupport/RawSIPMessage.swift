import Foundation

/// Just enough of a SIP message that came back to match it to what we sent:
/// the status code and a few header values. The tools talk to the server
/// from outside, so they read its answers as bytes.
public struct RawSIPMessage: Sendable {
    public let text: String

    public init(_ bytes: [UInt8]) {
        text = String(decoding: bytes, as: UTF8.self)
    }

    public init(text: String) {
        self.text = text
    }

    /// 200 for "SIP/2.0 200 OK"; nil for requests and garbage.
    public var statusCode: Int? {
        guard text.hasPrefix("SIP/2.0 ") else { return nil }
        let digits = text.dropFirst(8).prefix(3)
        guard digits.count == 3 else { return nil }
        return Int(digits)
    }

    /// The first status line: "SIP/2.0 200 OK".
    public var firstLine: String {
        String(text.prefix { $0 != "\r" && $0 != "\n" })
    }

    /// Values of every header called `name` (or its compact form), in order.
    public func headers(_ name: String, compact: String? = nil) -> [String] {
        let wanted = name.lowercased()
        let short = compact?.lowercased()
        var values: [String] = []
        let head = text.components(separatedBy: "\r\n\r\n").first ?? text
        for line in head.split(separator: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let field = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            guard field == wanted || field == short else { continue }
            values.append(line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        return values
    }

    public var callID: String? { headers("Call-ID", compact: "i").first }

    /// The CSeq number ("2" of "2 REGISTER").
    public var cseqNumber: Int? {
        headers("CSeq").first.flatMap { Int($0.split(separator: " ").first ?? "") }
    }
}
