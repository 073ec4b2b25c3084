/// A SIP message as the fuzzer builds it before byte-level mutations: start
/// line, header lines in order, body. Serialised with CRLF line ends and the
/// Content-Length the headers say, whatever the body really is.
public struct SIPMessageDraft: Sendable, Equatable {
    public var startLine: String
    public var headers: [DraftHeader]
    public var body: [UInt8]

    public init(startLine: String, headers: [DraftHeader], body: [UInt8] = []) {
        self.startLine = startLine
        self.headers = headers
        self.body = body
    }

    public var isResponse: Bool { startLine.hasPrefix("SIP/") }

    /// Indexes of the headers called `name` or its compact form, any case.
    public func indexes(of name: String, compact: String? = nil) -> [Int] {
        let wanted = name.lowercased()
        let short = compact?.lowercased()
        return headers.indices.filter {
            let field = headers[$0].name.lowercased()
            return field == wanted || field == short
        }
    }

    public func value(of name: String) -> String? {
        indexes(of: name).first.map { headers[$0].value }
    }

    /// Replaces the value of every header called `name`, or appends one.
    public mutating func set(_ name: String, _ value: String) {
        let found = indexes(of: name)
        if found.isEmpty {
            headers.append(DraftHeader(name, value))
        } else {
            for index in found { headers[index].value = value }
        }
    }

    /// Sets the body and a Content-Length that matches it.
    public mutating func setBody(_ bytes: [UInt8]) {
        body = bytes
        set("Content-Length", String(bytes.count))
    }

    public func bytes() -> [UInt8] {
        var out = Array(startLine.utf8)
        out += [13, 10]
        for header in headers {
            out += Array(header.name.utf8)
            out += Array(": ".utf8)
            out += Array(header.value.utf8)
            out += [13, 10]
        }
        out += [13, 10]
        out += body
        return out
    }
}
