import Foundation
import Registrar

/// Requests with digest credentials over a `RawSIPSocket`, written by hand so
/// that a test can capture and resend exactly what it likes (a replay).
struct RawDigestClient {
    let socket: RawSIPSocket
    let user: String
    let password: String
    var domain = "localhost"

    /// A REGISTER for `user`, with `authorization` when given.
    func register(contact: String, callID: String = UUID().uuidString, cseq: Int = 1, expires: Int = 300,
                  authorization: String? = nil, uri: String? = nil) -> String {
        let transport = socket.isStream ? "TCP" : "UDP"
        return "REGISTER \(uri ?? "sip:\(domain)") SIP/2.0\r\n" +
            "Via: SIP/2.0/\(transport) \(socket.localAddress):\(socket.localPort);branch=z9hG4bK\(UUID().uuidString.prefix(12));rport\r\n" +
            "From: <sip:\(user)@\(domain)>;tag=\(UUID().uuidString.prefix(8))\r\nTo: <sip:\(user)@\(domain)>\r\n" +
            "Call-ID: \(callID)\r\nCSeq: \(cseq) REGISTER\r\nMax-Forwards: 70\r\n" +
            "Contact: \(contact)\r\nExpires: \(expires)\r\n" +
            (authorization.map { "Authorization: \($0)\r\n" } ?? "") + "Content-Length: 0\r\n\r\n"
    }

    /// The Authorization (or Proxy-Authorization) value answering `challenge`
    /// (the parameters of an MD5 WWW-Authenticate) for `method` and `uri`.
    func authorization(_ challenge: [String: String], method: String, uri: String, nc: Int = 1,
                       digestURI: String? = nil, password: String? = nil) -> String {
        let realm = challenge["realm"] ?? domain
        let nonce = challenge["nonce"] ?? ""
        let count = String(format: "%08x", nc)
        let ha1 = DigestHash.ha1(username: user, realm: realm, password: password ?? self.password, algorithm: .md5)
        let response = DigestHash.response(ha1: ha1, nonce: nonce, method: method, uri: digestURI ?? uri, qop: "auth",
                                           nc: count, cnonce: "0a4f113b", algorithm: .md5)
        return "Digest username=\"\(user)\", realm=\"\(realm)\", nonce=\"\(nonce)\", uri=\"\(digestURI ?? uri)\", " +
            "response=\"\(response)\", algorithm=MD5, qop=auth, nc=\(count), cnonce=\"0a4f113b\""
    }

    /// A REGISTER, its challenge answered with `password` (default: the
    /// client's): the final status, nil when no challenge came.
    func registerAnsweringChallenge(contact: String, password: String? = nil) -> Int? {
        socket.send(register(contact: contact))
        guard let first = socket.receive(), let challenge = Self.challenge(first) else { return nil }
        socket.send(register(contact: contact, authorization: authorization(
            challenge, method: "REGISTER", uri: "sip:\(domain)", password: password)))
        return Self.status(socket.receive())
    }

    /// The MD5 challenge of a 401 or 407.
    static func challenge(_ response: String) -> [String: String]? {
        for header in ["WWW-Authenticate", "Proxy-Authenticate"] {
            let lines = response.components(separatedBy: "\r\n").filter { $0.lowercased().hasPrefix(header.lowercased() + ":") }
            for line in lines where line.contains("algorithm=MD5") {
                return CallRoutingTests.challenge(line + "\r\n", header: header)
            }
        }
        return nil
    }

    /// The status code of a response, or nil.
    static func status(_ response: String?) -> Int? {
        guard let response, response.hasPrefix("SIP/2.0 ") else { return nil }
        return Int(response.dropFirst(8).prefix(3))
    }
}
