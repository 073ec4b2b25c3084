import CSofiaSIP
import CSofiaShim
import Crypto
import Foundation
import SIPCore

/// A SIP user agent on Sofia-SIP's own transaction stack, for driving a real
/// sipwake server over loopback. It owns its SIP loop thread and agent.
actor SofiaTestUA {
    nonisolated let loop: SIPLoop
    nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }
    private var agent: OpaquePointer?

    /// Where requests go, e.g. `sip:127.0.0.1:5060;transport=tcp`.
    let proxy: String

    init(proxy: String) {
        self.loop = SIPLoop(name: "test-ua")
        self.proxy = proxy
    }

    func start() throws {
        agent = SofiaTagList().withTags { tags in
            "sip:127.0.0.1:*".withCString { url in
                swk_nta_agent_create(loop.suRoot, swk_url_string(url), { _, _, msg, _ in
                    msg_destroy(msg)
                    return 0
                }, nil, tags)
            }
        }
        guard agent != nil else { throw SIPCoreError.agentCreateFailed("test UA") }
    }

    func stop() {
        if let agent { nta_agent_destroy(agent) }
        agent = nil
        loop.stop()
    }

    /// Sends a request built from raw header values and waits for its final response.
    func send(
        method: String, uri: String, from: String, to: String, callID: String, cseq: UInt32,
        contacts: [String] = [], expires: Int? = nil, authorization: String? = nil,
        extraHeaders: [(String, String)] = [], transport: String? = nil, maxForwards: Int = 70
    ) async -> TestResponse {
        let tags = SofiaTagList()
            .string(swk_tag_siptag_request_str(), "\(method) \(uri) SIP/2.0")
            .string(swk_tag_siptag_from_str(), from)
            .string(swk_tag_siptag_to_str(), to)
            .string(swk_tag_siptag_call_id_str(), callID)
            .string(swk_tag_siptag_cseq_str(), "\(cseq) \(method)")
            .string(swk_tag_siptag_max_forwards_str(), String(maxForwards))
        if !contacts.isEmpty { tags.string(swk_tag_siptag_contact_str(), contacts.joined(separator: ", ")) }
        if let expires { tags.string(swk_tag_siptag_expires_str(), String(expires)) }
        if let authorization { tags.string(swk_tag_siptag_authorization_str(), authorization) }
        for (name, value) in extraHeaders { tags.header(name, value) }

        let msg = nta_msg_create(agent, 0)!
        _ = tags.withTags { swk_sip_add_tl(msg, swk_sip_object(msg), $0) }
        var route = proxy
        if let transport { route = route.replacingOccurrences(of: ";transport=udp", with: "").replacingOccurrences(of: ";transport=tcp", with: "") + ";transport=\(transport)" }

        return await withCheckedContinuation { continuation in
            let box = Unmanaged.passRetained(ResponseWaiter(loop: loop) { response in
                continuation.resume(returning: response)
            })
            let orq = SofiaTagList().withTags { end in
                route.withCString { r in
                    swk_nta_outgoing_mcreate(agent, { magic, orq, sip in
                        let waiter = Unmanaged<ResponseWaiter>.fromOpaque(UnsafeRawPointer(magic!))
                        let status = Int(sip?.pointee.sip_status?.pointee.st_status ?? 0)
                        if status >= 200 || sip == nil {
                            waiter.takeUnretainedValue().finish(orq: orq)
                            waiter.release()
                        }
                        return 0
                    }, OpaquePointer(box.toOpaque()), swk_url_string(r), msg, end)
                }
            }
            if orq == nil {
                box.release()
                continuation.resume(returning: TestResponse(status: 0, contacts: [], challenges: [], text: ""))
            }
        }
    }

    /// A REGISTER answered by a digest challenge is sent again with credentials.
    func register(
        user: String, password: String?, domain: String = "localhost", contacts: [String],
        expires: Int? = nil, callID: String = UUID().uuidString, cseq: UInt32 = 1,
        extraHeaders: [(String, String)] = [], algorithm: String = "SHA-256", transport: String? = nil,
        authUser: String? = nil
    ) async -> TestResponse {
        let aor = "<sip:\(user)@\(domain)>"
        let first = await send(method: "REGISTER", uri: "sip:\(domain)", from: "\(aor);tag=\(UUID().uuidString.prefix(8))", to: aor,
                               callID: callID, cseq: cseq, contacts: contacts, expires: expires,
                               extraHeaders: extraHeaders, transport: transport)
        guard first.status == 401, let password,
              let challenge = first.challenges.first(where: { ($0["algorithm"] ?? "MD5").uppercased() == algorithm.uppercased() })
        else { return first }
        let authorization = DigestClient.authorization(
            challenge: challenge, method: "REGISTER", uri: "sip:\(domain)",
            user: authUser ?? user, password: password)
        return await send(method: "REGISTER", uri: "sip:\(domain)", from: "\(aor);tag=\(UUID().uuidString.prefix(8))", to: aor,
                          callID: callID, cseq: cseq + 1, contacts: contacts, expires: expires,
                          authorization: authorization, extraHeaders: extraHeaders, transport: transport)
    }
}

/// Holds the continuation of one outgoing transaction. Loop thread only.
final class ResponseWaiter {
    let loop: SIPLoop
    let done: (TestResponse) -> Void
    init(loop: SIPLoop, done: @escaping (TestResponse) -> Void) {
        self.loop = loop
        self.done = done
    }

    func finish(orq: OpaquePointer?) {
        var response = TestResponse(status: 408, contacts: [], challenges: [], text: "")
        if let orq, let msg = nta_outgoing_getresponse(orq) {
            if let view = SIPMessage(msg: msg) {
                response = TestResponse(status: view.status ?? 0, contacts: view.contacts,
                                        challenges: view.digestChallenges, minExpires: view.minExpires,
                                        text: view.text)
            }
            msg_destroy(msg)
        } else if let orq {
            response.status = Int(nta_outgoing_status(orq))
        }
        if let orq { loop.deferRelease { nta_outgoing_destroy(orq) } }
        done(response)
    }
}

/// Digest credentials computed the way a phone does (RFC 2617 / RFC 7616),
/// written independently of the server's implementation.
enum DigestClient {
    static func hash(_ text: String, _ algorithm: String) -> String {
        let data = Data(text.utf8)
        if algorithm.uppercased() == "SHA-256" {
            return SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
        }
        return Insecure.MD5.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }

    static func authorization(challenge: [String: String], method: String, uri: String,
                              user: String, password: String, nonceOverride: String? = nil) -> String {
        let algorithm = challenge["algorithm"] ?? "MD5"
        let realm = challenge["realm"] ?? ""
        let nonce = nonceOverride ?? challenge["nonce"] ?? ""
        let ha1 = hash("\(user):\(realm):\(password)", algorithm)
        let ha2 = hash("\(method):\(uri)", algorithm)
        let cnonce = "0a4f113b"
        let nc = "00000001"
        if let qop = challenge["qop"], qop.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }).contains("auth") {
            let response = hash("\(ha1):\(nonce):\(nc):\(cnonce):auth:\(ha2)", algorithm)
            return "Digest username=\"\(user)\", realm=\"\(realm)\", nonce=\"\(nonce)\", uri=\"\(uri)\", response=\"\(response)\", algorithm=\(algorithm), qop=auth, nc=\(nc), cnonce=\"\(cnonce)\""
        }
        let response = hash("\(ha1):\(nonce):\(ha2)", algorithm)
        return "Digest username=\"\(user)\", realm=\"\(realm)\", nonce=\"\(nonce)\", uri=\"\(uri)\", response=\"\(response)\", algorithm=\(algorithm)"
    }
}
