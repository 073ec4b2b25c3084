import Foundation
import XCTest

/// A phone whose app sleeps: it registers (digest) from a plain UDP or TCP
/// socket and then answers nothing unless a test tells it to, while it keeps
/// every message sipwake sends, in order, so a test can check what went on
/// the wire and when (relative to the other messages).
final class SilentPhone {
    /// One message as received, with the few fields a test looks at.
    struct Message {
        let text: String
        var firstLine: String { String(text.prefix { $0 != "\r" && $0 != "\n" }) }
        var isRequest: Bool { !firstLine.hasPrefix("SIP/2.0") }
        var method: String? { isRequest ? firstLine.components(separatedBy: " ").first : nil }
        var status: Int? { isRequest ? nil : Int(firstLine.components(separatedBy: " ").dropFirst().first ?? "") }

        /// The first value of header `name`.
        func header(_ name: String) -> String? {
            for line in text.components(separatedBy: "\r\n").dropFirst() {
                if line.isEmpty { break }
                guard let colon = line.firstIndex(of: ":") else { continue }
                if line[..<colon].trimmingCharacters(in: .whitespaces).lowercased() == name.lowercased() {
                    return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
            }
            return nil
        }

        /// The branch of the top Via.
        var branch: String? {
            guard let via = header("Via"), let range = via.range(of: "branch=") else { return nil }
            return String(via[range.upperBound...].prefix { $0 != ";" && $0 != "," && $0 != " " })
        }
    }

    let socket: RawSIPSocket
    let client: RawDigestClient
    let instance: String
    private let registerCallID = UUID().uuidString
    private var cseq = 0
    private var pending = ""
    /// Every message received so far, in order.
    private(set) var received: [Message] = []
    /// How many of `received` a `next` call has handed out or skipped.
    private var cursor = 0

    init(udpTo port: Int, instance: String) throws {
        socket = try RawSIPSocket(udpTo: port)
        client = RawDigestClient(socket: socket, user: "alice", password: "alice-secret")
        self.instance = instance
    }

    init(tcpTo port: Int, instance: String) throws {
        socket = try RawSIPSocket(tcpTo: port)
        client = RawDigestClient(socket: socket, user: "alice", password: "alice-secret")
        self.instance = instance
    }

    var contact: String {
        "<sip:alice@127.0.0.1:\(socket.localPort)\(socket.isStream ? ";transport=tcp" : "")>;+sip.instance=\"<urn:uuid:\(instance)>\""
    }

    /// Registers (or re-registers) the same contact and device, answering
    /// the challenge: the final status.
    func register() -> Int? {
        cseq += 1
        socket.send(client.register(contact: contact, callID: registerCallID, cseq: cseq, expires: 600))
        guard let challenge = next(timeout: 5, where: { $0.status.map { $0 >= 200 } ?? false && $0.header("CSeq") == "\(cseq) REGISTER" }),
              let parameters = RawDigestClient.challenge(challenge.text) else { return nil }
        cseq += 1
        socket.send(client.register(contact: contact, callID: registerCallID, cseq: cseq, expires: 600,
                                    authorization: client.authorization(parameters, method: "REGISTER", uri: "sip:localhost")))
        return next(timeout: 5, where: { $0.status.map { $0 >= 200 } ?? false && $0.header("CSeq") == "\(cseq) REGISTER" })?.status
    }

    /// The next message after the last one handed out that matches, waiting
    /// up to `timeout` seconds for it; the messages skipped stay in `received`.
    func next(timeout: Double, where matches: (Message) -> Bool) -> Message? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            while cursor < received.count {
                let message = received[cursor]
                cursor += 1
                if matches(message) { return message }
            }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return nil }
            read(timeout: left)
        }
    }

    /// Keeps reading for `seconds`; returns the messages that came, in order.
    func collect(for seconds: Double) -> [Message] {
        let start = received.count
        let deadline = Date().addingTimeInterval(seconds)
        while deadline.timeIntervalSinceNow > 0 { read(timeout: deadline.timeIntervalSinceNow) }
        cursor = received.count
        return Array(received[start...])
    }

    /// A response to `request` (an INVITE or CANCEL it received), echoing
    /// its Via, From, To (with a tag), Call-ID and CSeq.
    func respond(to request: Message, status: Int, phrase: String, tag: String = "silent1") {
        var lines = ["SIP/2.0 \(status) \(phrase)"]
        for line in request.text.components(separatedBy: "\r\n").dropFirst() {
            if line.isEmpty { break }
            let name = line.prefix { $0 != ":" }.lowercased()
            if name == "via" || name == "from" || name == "call-id" || name == "cseq" || name == "record-route" {
                lines.append(line)
            } else if name == "to" {
                lines.append(line.contains(";tag=") ? line : line + ";tag=\(tag)")
            }
        }
        if (200..<300).contains(status) && request.method == "INVITE" {
            lines.append("Contact: <sip:alice@127.0.0.1:\(socket.localPort)>")
        }
        lines.append("Content-Length: 0")
        socket.send(lines.joined(separator: "\r\n") + "\r\n\r\n")
    }

    private func read(timeout: Double) {
        guard let chunk = socket.receive(timeout: max(timeout, 0.01)), !chunk.isEmpty else { return }
        if !socket.isStream {
            received.append(Message(text: chunk))
            return
        }
        pending += chunk
        // A stream carries messages back to back: each ends after its body.
        while let end = pending.range(of: "\r\n\r\n") {
            let head = Message(text: String(pending[..<end.upperBound]))
            let length = Int(head.header("Content-Length") ?? head.header("l") ?? "0") ?? 0
            let bodyStart = end.upperBound
            guard pending.utf8.distance(from: bodyStart, to: pending.endIndex) >= length else { break }
            let bodyEnd = pending.utf8.index(bodyStart, offsetBy: length)
            received.append(Message(text: String(pending[..<bodyEnd])))
            pending = String(pending[bodyEnd...])
            if pending.hasPrefix("\r\n") { pending.removeFirst(2) }
        }
    }
}
