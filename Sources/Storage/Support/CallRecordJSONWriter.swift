import Foundation
import Model

/// Writes a `CallRecord` as the JSON stored in `call_records.record`: the
/// very bytes `JSONEncoder` writes for it with sorted keys, slashes
/// unescaped and dates as seconds since 1970, absent optionals left out, so
/// rows written before and after read back alike.
///
/// The record writer encodes every call two or three times; `JSONEncoder`
/// builds a tree of boxed values and sorts each object's keys for every
/// one, and was half of that thread's time. Here the keys are written in
/// their sorted order, straight into one buffer.
struct CallRecordJSONWriter {
    /// A date JSON cannot hold (infinite or NaN); nothing is written.
    struct NotFinite: Error, CustomStringConvertible {
        let field: String
        var description: String { "\(field) is not a finite time" }
    }

    private var bytes: [UInt8] = []
    /// Whether the object being written has a member yet (its comma).
    private var hasMember = false

    /// The record's stored JSON.
    /// - Throws: `NotFinite` for a time that is not finite.
    static func json(_ record: CallRecord) throws -> String {
        var writer = CallRecordJSONWriter()
        writer.bytes.reserveCapacity(512 + 160 * (record.events.count + record.branches.count + record.pushes.count))
        try writer.write(record)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    // MARK: - The record's types, keys in sorted order

    private mutating func write(_ r: CallRecord) throws {
        open()
        member("answerTag", r.answerTag)
        member("answeredBy", r.answeredBy)
        key("branches")
        try array(r.branches) { try $0.write($1) }
        member("callID", r.callID)
        member("callee", r.callee)
        member("caller", r.caller)
        member("callerDisplayName", r.callerDisplayName)
        try member("endedAt", date: r.endedAt)
        key("events")
        try array(r.events) { try $0.write($1) }
        member("finalStatus", r.finalStatus)
        try member("hungUpAt", date: r.hungUpAt)
        member("hungUpBy", r.hungUpBy?.rawValue)
        member("id", r.id)
        member("outcome", r.outcome?.rawValue)
        member("pairingID", r.pairingID)
        key("pushes")
        try array(r.pushes) { try $0.write($1) }
        member("reason", r.reason)
        try member("startedAt", date: r.startedAt)
        close()
    }

    private mutating func write(_ b: CallBranchRecord) throws {
        open()
        member("cancelled", b.cancelled)
        member("contact", b.contact)
        try member("endedAt", date: b.endedAt)
        member("finalReason", b.finalReason)
        member("finalStatus", b.finalStatus)
        member("id", b.id)
        member("instanceID", b.instanceID)
        try member("provisionalAt", date: b.provisionalAt)
        member("provisionalStatus", b.provisionalStatus)
        member("reason", b.reason)
        try member("startedAt", date: b.startedAt)
        close()
    }

    private mutating func write(_ e: CallEventRecord) throws {
        open()
        try member("at", date: e.at)
        member("detail", e.detail)
        member("event", e.event)
        close()
    }

    private mutating func write(_ p: CallPushRecord) throws {
        open()
        member("attempt", p.attempt)
        try member("completedAt", date: p.completedAt)
        member("detail", p.detail)
        member("httpStatus", p.httpStatus)
        member("id", p.id)
        member("result", p.result)
        member("selector", p.selector)
        try member("sentAt", date: p.sentAt)
        member("tupleID", p.tupleID)
        member("verb", p.verb)
        close()
    }

    // MARK: - JSON

    private mutating func open() {
        bytes.append(UInt8(ascii: "{"))
        hasMember = false
    }

    private mutating func close() {
        bytes.append(UInt8(ascii: "}"))
        hasMember = true
    }

    private mutating func key(_ name: StaticString) {
        if hasMember { bytes.append(UInt8(ascii: ",")) }
        hasMember = true
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
    }

    private mutating func array<T>(_ items: [T], _ write: (inout CallRecordJSONWriter, T) throws -> Void) throws {
        bytes.append(UInt8(ascii: "["))
        for (index, item) in items.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            try write(&self, item)
        }
        bytes.append(UInt8(ascii: "]"))
        hasMember = true
    }

    private mutating func member(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        key(name)
        string(value)
    }

    private mutating func member<I: BinaryInteger>(_ name: StaticString, _ value: I?) {
        guard let value else { return }
        key(name)
        bytes.append(contentsOf: String(value).utf8)
    }

    private mutating func member(_ name: StaticString, date: Date?) throws {
        guard let date else { return }
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite else { throw NotFinite(field: "\(name)") }
        key(name)
        var text = seconds.description
        // JSONEncoder writes a whole number of seconds without ".0".
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    /// A JSON string: quote, backslash and control characters escaped as
    /// `JSONEncoder` escapes them, everything else as its UTF-8.
    private mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x00..<0x20:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                          hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
