import CSofiaSIP
import CSofiaShim
import CSofiaTestShim
import Foundation
import SIPCore

/// A SIP phone on Sofia-SIP's user agent API (NUA), for end-to-end tests: it
/// plays a PBX placing calls through sipwake and the mobile phones that
/// register with sipwake and get called, over real loopback sockets.
///
/// The phone owns its SIP loop thread (`loop`), which is also the actor's
/// executor, so Sofia's callbacks and the test's calls meet on one thread.
/// Sofia sends 100 Trying, ACKs 2xx answers, answers BYE and CANCEL (the
/// INVITE gets 487) and answers MESSAGE 200 by itself; everything else is the
/// test's decision. There is no media engine: SDP is a fixed text.
///
/// API:
/// - `init(name:transport:)`: `transport` is "udp" or "tcp"; the phone binds
///   127.0.0.1 on a free port on that transport only.
/// - `start() async throws`, `stop() async`: `stop` releases every call and
///   registration (Sofia may send a last BYE or un-REGISTER), shuts NUA down
///   and ends the loop.
/// - `contactURI`: `sip:NAME@127.0.0.1:PORT` (`;transport=tcp` on TCP). The
///   same address is the Contact of REGISTERs and of the phone's dialogs.
/// - `register(registrar:user:password:domain:expires:instanceID:contactParams:uriParams:)`
///   sends REGISTER for `sip:USER@DOMAIN` (Request-URI `sip:DOMAIN`) through
///   `registrar` (e.g. `sip:127.0.0.1:5070;transport=tcp`) and returns the
///   final status; a 401/407 is answered once with digest credentials.
///   Repeating it for the same user, domain and registrar refreshes the same
///   registration (same Call-ID, higher CSeq); `expires: 0` removes it.
///   `instanceID` becomes `;+sip.instance="<urn:uuid:ID>"`, `contactParams`
///   (e.g. `;pn-prid=TOKEN`) is appended after the Contact's `>`, and
///   `uriParams` goes inside the Contact URI. `contactAddress` (e.g.
///   `192.168.7.7:5060`) is the host and port the Contact claims instead of
///   the phone's own, as a phone behind NAT puts its private address there:
///   only a request sent to where the REGISTER came from reaches the phone.
/// - `registerRequestsSent()`: REGISTER requests that went out, challenged
///   ones included; `registerResponses()`: every final REGISTER response.
/// - Incoming: `waitForInvite(timeout:)` (next new INVITE),
///   `respond(_:status:reason:)` (a 2xx carries an SDP answer),
///   `waitForEvent(_:timeout:)`, `waitForMessage(timeout:)`, `invitesReceived()`.
/// - Outgoing: `invite(_:via:headers:media:user:password:from:)` (SDP offer
///   with one m-line per comma-separated media), `waitForResponse(_:atLeast:timeout:)`
///   (skips responses below `atLeast`), `cancel(_:reason:)`.
/// - Either side: `bye(_:)` returns the BYE's final status (0 when the call
///   is already over), `waitForBye(_:timeout:)`.
actor SofiaPhone {
    nonisolated let loop: SIPLoop
    nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }
    nonisolated let name: String
    nonisolated let transport: String

    private(set) var port = 0
    private var nua: OpaquePointer?
    /// The reference Sofia holds as the NUA callback's context, released in `stop`.
    private var callbackContext: Unmanaged<SofiaPhone>?
    private var shutdownComplete = false

    private var calls: [Int: SofiaPhoneCallState] = [:]
    private var callNumbers: [OpaquePointer: Int] = [:]
    private var nextCallNumber = 1
    private var newInvites: [SofiaPhoneIncomingCall] = []
    private var inviteCount = 0
    private var messages: [SofiaPhoneMessage] = []
    /// The loopback address the phone binds.
    nonisolated let host: String
    /// Reason phrases handed to NUA, which keeps the pointers.
    private var phrases: [UnsafeMutablePointer<CChar>] = []

    private var registrations: [String: SofiaPhoneRegistration] = [:]
    private var registrationsByHandle: [OpaquePointer: SofiaPhoneRegistration] = [:]
    private var registerCount = 0
    private var registerFinals: [SofiaPhoneResponse] = []

    /// Waits in progress, woken on every Sofia event.
    private var changeWaiters: [CheckedContinuation<Void, Never>] = []

    /// How long a request may take before Sofia times it out itself (64*T1 plus slack).
    private static let transactionTimeout: Duration = .seconds(40)

    /// `host`: the loopback address to bind, e.g. 127.0.0.2 for a PBX that
    /// sipwake trusts while phones on 127.0.0.1 are challenged.
    init(name: String, transport: String = "udp", host: String = "127.0.0.1") {
        self.name = name
        self.transport = transport
        self.host = host
        self.loop = SIPLoop(name: "phone-\(name)")
    }

    var contactURI: String {
        "sip:\(name)@\(host):\(port)" + (transport == "udp" ? "" : ";transport=\(transport)")
    }

    /// Starts the loop thread, then NUA on it.
    nonisolated func start() async throws {
        try loop.start()
        try await open()
    }

    private func open() throws {
        let root = loop.suRoot
        // NUA's stack runs on this loop thread too, not on a thread of its own.
        _ = su_root_threading(root, 0)
        let context = Unmanaged.passRetained(self)
        for _ in 0..<20 {
            let port = try TestPorts.free()
            let tags = SofiaTagList()
                .string(swk_tag_nutag_url(), "sip:\(host):\(port);transport=\(transport)")
                .string(swk_tag_nutag_m_username(), name)
                .bool(swk_tag_nutag_autoanswer(), false)
                .bool(swk_tag_nutag_autoalert(), false)
                .bool(swk_tag_nutag_autoack(), true)
                .bool(swk_tag_nutag_enablemessage(), true)
                .bool(swk_tag_nutag_media_enable(), false)
                .string(swk_tag_nutag_outbound(), "no-natify, no-options-keepalive, no-validate")
                .integer(swk_tag_nutag_keepalive(), 0)
                .string(swk_tag_nutag_user_agent(), "sipwake-test-phone")
            let created = tags.withTags { swk_nua_create(root, SofiaPhone.callback, context.toOpaque(), $0) }
            if let created {
                nua = created
                self.port = port
                callbackContext = context
                return
            }
        }
        context.release()
        throw SIPCoreError.agentCreateFailed("phone \(name)")
    }

    func stop() async {
        if let nua {
            for call in calls.values {
                if let handle = call.handle { nua_handle_destroy(handle) }
                call.handle = nil
            }
            for registration in registrations.values { nua_handle_destroy(registration.handle) }
            calls.removeAll()
            callNumbers.removeAll()
            registrations.removeAll()
            registrationsByHandle.removeAll()
            nua_shutdown(nua)
            _ = await wait(Self.transactionTimeout) { shutdownComplete ? true : nil }
            nua_destroy(nua)
            self.nua = nil
            callbackContext?.release()
            callbackContext = nil
            for phrase in phrases { free(phrase) }
            phrases.removeAll()
        }
        loop.stop()
    }

    // MARK: Registration

    func register(registrar: String, user: String, password: String, domain: String = "localhost",
                  expires: Int = 600, instanceID: String? = nil, contactParams: String? = nil,
                  uriParams: String? = nil, contactAddress: String? = nil) async -> Int {
        guard let nua else { return 0 }
        let key = "\(user)@\(domain) via \(registrar)"
        let registration: SofiaPhoneRegistration
        if let existing = registrations[key] {
            registration = existing
            registration.password = password
        } else {
            let aor = "<sip:\(user)@\(domain)>"
            let tags = SofiaTagList().to(aor).from(aor).string(swk_tag_nutag_proxy(), registrar)
            guard let handle = tags.withTags({ swk_nua_handle(nua, nil, $0) }) else { return 0 }
            registration = SofiaPhoneRegistration(handle: handle, domain: domain, user: user,
                                                  password: password, proxy: registrar)
            registrations[key] = registration
            registrationsByHandle[handle] = registration
        }
        var uri = contactAddress.map { "sip:\(name)@\($0)" } ?? contactURI
        if let uriParams { uri += uriParams.hasPrefix(";") ? uriParams : ";" + uriParams }
        var contact = "<\(uri)>"
        if let instanceID {
            let urn = instanceID.hasPrefix("urn:") ? instanceID : "urn:uuid:\(instanceID)"
            contact += ";+sip.instance=\"<\(urn)>\""
        }
        if let contactParams { contact += contactParams.hasPrefix(";") ? contactParams : ";" + contactParams }
        registration.contact = contact
        registration.expires = expires
        registration.finalResponse = nil
        registration.authenticated = false
        sendRegister(registration, credentials: nil)
        let response = await wait(Self.transactionTimeout) { registration.finalResponse }
        return response?.status ?? 408
    }

    func registerRequestsSent() -> Int { registerCount }

    func registerResponses() -> [SofiaPhoneResponse] { registerFinals }

    private func sendRegister(_ registration: SofiaPhoneRegistration, credentials: (tag: tag_type_t, value: String)?) {
        let tags = SofiaTagList()
            .string(swk_tag_nutag_registrar(), "sip:\(registration.domain)")
            // This Sofia build ignores the handle's proxy for the request itself.
            .string(swk_tag_nutag_proxy(), registration.proxy)
            .contact(registration.contact)
            .string(swk_tag_siptag_expires_str(), String(registration.expires))
        if let credentials { tags.string(credentials.tag, credentials.value) }
        tags.withTags { swk_nua_register(registration.handle, $0) }
        registerCount += 1
    }

    // MARK: Incoming calls and messages

    func waitForInvite(timeout: Duration) async -> SofiaPhoneIncomingCall? {
        await wait(timeout) { newInvites.isEmpty ? nil : newInvites.removeFirst() }
    }

    func invitesReceived() -> Int { inviteCount }

    func respond(_ call: SofiaPhoneIncomingCall, status: Int, reason: String? = nil) async {
        guard let handle = calls[call.callNumber]?.handle else { return }
        let tags = SofiaTagList()
        if (200..<300).contains(status) {
            tags.string(swk_tag_siptag_content_type_str(), "application/sdp")
                .string(swk_tag_siptag_payload_str(), SofiaPhone.sdp(media: "audio", port: 49180))
        }
        tags.withTags { swk_nua_respond(handle, Int32(status), reasonPhrase(status, reason), $0) }
    }

    /// A reason phrase that outlives the call: NUA keeps the pointer until
    /// its stack sends the response. Custom phrases are freed in `stop`.
    private func reasonPhrase(_ status: Int, _ reason: String?) -> UnsafePointer<CChar> {
        if reason == nil, let standard = sip_status_phrase(Int32(status)) { return standard }
        let copy = strdup(reason ?? "Unknown")!
        phrases.append(copy)
        return UnsafePointer(copy)
    }

    func waitForEvent(_ call: SofiaPhoneIncomingCall, timeout: Duration) async -> SofiaPhoneCallEvent? {
        guard let state = calls[call.callNumber] else { return nil }
        return await wait(timeout) { state.events.isEmpty ? nil : state.events.removeFirst() }
    }

    func waitForMessage(timeout: Duration) async -> SofiaPhoneMessage? {
        await wait(timeout) { messages.isEmpty ? nil : messages.removeFirst() }
    }

    // MARK: Outgoing calls

    /// Calls `uri` through `proxy` (e.g. `sip:127.0.0.1:5070;transport=tcp`).
    /// `from` defaults to `<sip:USER-or-NAME@HOST-of-uri>`. With `user` and
    /// `password`, a 401/407 is answered once with digest credentials.
    func invite(_ uri: String, via proxy: String, headers: [(String, String)] = [], media: String = "audio",
                user: String? = nil, password: String? = nil, from: String? = nil) async -> SofiaPhoneOutgoingCall {
        let number = nextCallNumber
        nextCallNumber += 1
        let state = SofiaPhoneCallState(handle: nil)
        let host = uri.split(separator: "@").last.map { String($0.prefix { $0 != ";" && $0 != ">" && $0 != ":" }) } ?? "localhost"
        state.invite = SofiaPhoneCallState.Invite(
            uri: uri, proxy: proxy, from: from ?? "<sip:\(user ?? name)@\(host)>", headers: headers,
            media: media, user: user, password: password)
        calls[number] = state
        sendInvite(number, state, credentials: nil)
        return SofiaPhoneOutgoingCall(callNumber: number)
    }

    private func sendInvite(_ number: Int, _ state: SofiaPhoneCallState, credentials: (tag: tag_type_t, value: String)?) {
        guard let nua, let invite = state.invite else { return }
        let handleTags = SofiaTagList().to("<\(invite.uri)>").from(invite.from).string(swk_tag_nutag_proxy(), invite.proxy)
        // A call without credentials is the PBX's: on a 5xx with Retry-After a
        // PBX routes elsewhere, so Sofia must not send the INVITE again after
        // the delay (its default) and the test sees the 503 itself.
        if invite.user == nil { handleTags.integer(swk_tag_nutag_retry_count(), 0) }
        guard let handle = handleTags.withTags({ swk_nua_handle(nua, nil, $0) }) else {
            state.responses.append(SofiaPhoneResponse(status: 503, reason: "No handle", headers: SofiaPhoneHeaders(text: ""), text: ""))
            return
        }
        state.handle = handle
        callNumbers[handle] = number
        let tags = SofiaTagList()
            .string(swk_tag_siptag_content_type_str(), "application/sdp")
            .string(swk_tag_siptag_payload_str(), SofiaPhone.sdp(media: invite.media, port: 49170))
        // This Sofia build ignores the handle's proxy for the request itself: it goes with the INVITE too.
        tags.string(swk_tag_nutag_proxy(), invite.proxy)
        for (name, value) in invite.headers { tags.header(name, value) }
        if let credentials { tags.string(credentials.tag, credentials.value) }
        tags.withTags { swk_nua_invite(handle, $0) }
    }

    func waitForResponse(_ call: SofiaPhoneOutgoingCall, atLeast status: Int, timeout: Duration) async -> SofiaPhoneResponse? {
        guard let state = calls[call.callNumber] else { return nil }
        return await wait(timeout) {
            while !state.responses.isEmpty {
                let response = state.responses.removeFirst()
                if response.status >= status { return response }
            }
            return nil
        }
    }

    /// CANCELs the INVITE; `reason` is a Reason header value, e.g.
    /// `SIP;cause=200;text="Call completed elsewhere"`.
    func cancel(_ call: SofiaPhoneOutgoingCall, reason: String? = nil) async {
        guard let handle = calls[call.callNumber]?.handle else { return }
        let tags = SofiaTagList()
        if let reason { tags.string(swk_tag_siptag_reason_str(), reason) }
        tags.withTags { swk_nua_cancel(handle, $0) }
    }

    // MARK: Either side

    func bye(_ call: some SofiaPhoneCall) async -> Int {
        guard let state = calls[call.callNumber], let handle = state.handle else { return 0 }
        state.byeStatus = nil
        SofiaTagList().withTags { swk_nua_bye(handle, $0) }
        return await wait(Self.transactionTimeout) { state.byeStatus } ?? 408
    }

    func waitForBye(_ call: some SofiaPhoneCall, timeout: Duration) async -> Bool {
        guard let state = calls[call.callNumber] else { return false }
        return await wait(timeout) { state.byeReceived ? true : nil } ?? false
    }

    // MARK: Sofia events

    private static let callback: nua_callback_f = { event, status, phrase, _, magic, handle, _, sip, _ in
        guard let magic else { return }
        let phone = Unmanaged<SofiaPhone>.fromOpaque(magic).takeUnretainedValue()
        let phraseText = phrase.map { String(cString: $0) } ?? ""
        let hasMessage = sip != nil
        // The handle crosses into the closure as its address; it stays on this thread.
        let handleAddress = UInt(bitPattern: handle)
        // NUA calls back on the loop thread, which is this actor's executor.
        phone.assumeIsolated { $0.handle(event, Int(status), phraseText, OpaquePointer(bitPattern: handleAddress), hasMessage) }
    }

    private func handle(_ event: nua_event_t, _ status: Int, _ phrase: String, _ handle: OpaquePointer?, _ hasMessage: Bool) {
        defer { notifyChange() }
        guard let nua else { return }
        // The message of the event (request or response), saved to read its text.
        var text = ""
        var challenges: [[String: String]] = []
        var saved: nua_saved_event_t?
        if nua_save_event(nua, &saved) != 0, saved != nil {
            if let data = nua_event_data(&saved), let msg = data.pointee.e_msg, let view = SIPMessage(msg: msg) {
                text = view.text
                challenges = view.digestChallenges
            }
            nua_destroy_event(&saved)
        }
        let headers = SofiaPhoneHeaders(text: text)

        switch event {
        case nua_r_shutdown:
            if status >= 200 { shutdownComplete = true }
        case nua_i_invite:
            guard let handle else { return }
            if let number = callNumbers[handle], let state = calls[number], state.handle != nil {
                // A re-INVITE in a call we have: accept it as it is.
                SofiaTagList()
                    .string(swk_tag_siptag_content_type_str(), "application/sdp")
                    .string(swk_tag_siptag_payload_str(), SofiaPhone.sdp(media: "audio", port: 49180))
                    .withTags { swk_nua_respond(handle, 200, reasonPhrase(200, nil), $0) }
                return
            }
            let number = nextCallNumber
            nextCallNumber += 1
            inviteCount += 1
            calls[number] = SofiaPhoneCallState(handle: handle)
            callNumbers[handle] = number
            let requestLine = headers.startLine.split(separator: " ")
            newInvites.append(SofiaPhoneIncomingCall(
                callNumber: number, requestURI: requestLine.count > 1 ? String(requestLine[1]) : "",
                callID: headers.first("call-id") ?? "", from: headers.first("from") ?? "",
                to: headers.first("to") ?? "", headers: headers, text: text))
        case nua_i_cancel:
            call(handle)?.events.append(.cancelled(reason: headers.first("reason")))
        case nua_i_ack:
            call(handle)?.events.append(.ack)
        case nua_i_bye:
            if let state = call(handle) {
                state.events.append(.bye)
                state.byeReceived = true
            }
        case nua_i_terminated:
            guard let handle, let state = call(handle) else { return }
            state.terminated = true
            state.events.append(.terminated)
            release(handle)
            state.handle = nil
        case nua_i_message:
            let requestLine = headers.startLine.split(separator: " ")
            messages.append(SofiaPhoneMessage(
                requestURI: requestLine.count > 1 ? String(requestLine[1]) : "",
                contentType: headers.first("content-type"), body: headers.body, headers: headers, text: text))
            if let handle, callNumbers[handle] == nil, registrationsByHandle[handle] == nil { release(handle) }
        case nua_r_invite:
            guard let handle, let number = callNumbers[handle], let state = calls[number] else { return }
            // A status below 100 or without a message is Sofia restarting the request.
            if status < 200 && !hasMessage { return }
            let response = SofiaPhoneResponse(status: status, reason: phrase, headers: headers, text: text)
            if status == 401 || status == 407, !state.authenticated, let invite = state.invite,
               let user = invite.user, let password = invite.password {
                state.authenticated = true
                if SofiaPhone.sofiaAnswers(challenges) {
                    authenticate(handle, challenges, user: user, password: password)
                } else if let credentials = SofiaPhone.credentials(status, challenges, method: "INVITE", uri: invite.uri,
                                                                   user: user, password: password) {
                    // Sofia gave up on the challenge: the call starts again with credentials.
                    callNumbers.removeValue(forKey: handle)
                    release(handle)
                    sendInvite(number, state, credentials: credentials)
                } else {
                    state.responses.append(response)
                }
                return
            }
            state.responses.append(response)
        case nua_r_bye:
            if status >= 200 { call(handle)?.byeStatus = status }
        case nua_r_register, nua_r_unregister:
            guard let handle, let registration = registrationsByHandle[handle] else { return }
            if status < 200 {
                if !hasMessage { registerCount += 1 }
                return
            }
            let response = SofiaPhoneResponse(status: status, reason: phrase, headers: headers, text: text)
            registerFinals.append(response)
            if status == 401 || status == 407, !registration.authenticated {
                registration.authenticated = true
                if SofiaPhone.sofiaAnswers(challenges) {
                    authenticate(handle, challenges, user: registration.user, password: registration.password)
                    registerCount += 1
                    return
                }
                if let credentials = SofiaPhone.credentials(status, challenges, method: "REGISTER",
                                                            uri: "sip:\(registration.domain)",
                                                            user: registration.user, password: registration.password) {
                    sendRegister(registration, credentials: credentials)
                    return
                }
            }
            registration.finalResponse = response
        default:
            break
        }
    }

    private func call(_ handle: OpaquePointer?) -> SofiaPhoneCallState? {
        guard let handle, let number = callNumbers[handle] else { return nil }
        return calls[number]
    }

    /// Destroys a NUA handle on the next loop turn, never inside its own callback.
    private func release(_ handle: OpaquePointer) {
        callNumbers.removeValue(forKey: handle)
        loop.deferRelease { nua_handle_destroy(handle) }
    }

    // MARK: Digest

    /// This Sofia build answers MD5 digest challenges itself (nua_authenticate)
    /// and gives up on a response carrying any other algorithm.
    private static func sofiaAnswers(_ challenges: [[String: String]]) -> Bool {
        !challenges.isEmpty && challenges.allSatisfy { ($0["algorithm"] ?? "MD5").uppercased() == "MD5" }
    }

    private func authenticate(_ handle: OpaquePointer, _ challenges: [[String: String]], user: String, password: String) {
        let tags = SofiaTagList()
        for realm in Set(challenges.compactMap { $0["realm"] }) {
            tags.string(swk_tag_nutag_auth(), "Digest:\"\(realm)\":\(user):\(password)")
        }
        tags.withTags { swk_nua_authenticate(handle, $0) }
    }

    /// An Authorization (401) or Proxy-Authorization (407) header for the
    /// strongest challenge offered.
    private static func credentials(_ status: Int, _ challenges: [[String: String]], method: String, uri: String,
                                    user: String, password: String) -> (tag: tag_type_t, value: String)? {
        let preferred = challenges.first { ($0["algorithm"] ?? "MD5").uppercased() == "SHA-256" }
            ?? challenges.first { ($0["algorithm"] ?? "MD5").uppercased() == "MD5" }
        guard let challenge = preferred else { return nil }
        let value = DigestClient.authorization(challenge: challenge, method: method, uri: uri, user: user, password: password)
        let tag: tag_type_t = status == 407 ? swk_tag_siptag_proxy_authorization_str() : swk_tag_siptag_authorization_str()
        return (tag, value)
    }

    // MARK: Waiting

    private func notifyChange() {
        let waiters = changeWaiters
        changeWaiters.removeAll()
        for waiter in waiters { waiter.resume() }
    }

    /// Returns the first non-nil `take()`, checked now and after every Sofia
    /// event, or nil once `timeout` has passed.
    private func wait<T>(_ timeout: Duration, _ take: () -> T?) async -> T? {
        let deadline = ContinuousClock.now + timeout
        let timer = Task { [weak self] in
            guard (try? await Task.sleep(until: deadline, clock: .continuous)) != nil else { return }
            await self?.notifyChange()
        }
        defer { timer.cancel() }
        while true {
            if let value = take() { return value }
            if ContinuousClock.now >= deadline { return nil }
            await withCheckedContinuation { changeWaiters.append($0) }
        }
    }

    /// A session description without real media: one m-line per
    /// comma-separated media name, ports counting up from `port`.
    private static func sdp(media: String, port: Int) -> String {
        var lines = ["v=0", "o=- 1 1 IN IP4 127.0.0.1", "s=-", "c=IN IP4 127.0.0.1", "t=0 0"]
        for (index, kind) in media.split(separator: ",").enumerated() {
            let name = kind.trimmingCharacters(in: .whitespaces)
            if name == "video" {
                lines += ["m=video \(port + 2 * index) RTP/AVP 96", "a=rtpmap:96 H264/90000"]
            } else {
                lines += ["m=\(name) \(port + 2 * index) RTP/AVP 0", "a=rtpmap:0 PCMU/8000"]
            }
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }
}
