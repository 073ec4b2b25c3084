import CCurl
import Foundation
import Logging
import Model
import Ports

/// The libcurl side of ``PushClient``: one multi handle and its easy handles,
/// created, driven and freed on the `push-http` thread only. It sends pushes
/// and the plain exchanges of ``PushClient/perform(_:)`` (OAuth token
/// requests) alike, with the same timeouts and TLS settings. Each push's
/// provider builds its URL, method, headers and body here, when the push
/// starts, so that the callers of ``PushClient/send(_:completion:)`` never
/// pay for it. Every push ends through the ``PushResultReporter``. Connections stay
/// open between pushes and are shared by concurrent pushes to the same host
/// when it speaks HTTP/2.
final class PushTransferLoop {
    private let settings: PushClientSettings
    private let queue: PushRequestQueue
    private let logger: Logger
    private let reporter: PushResultReporter
    private var transfers: [UnsafeMutableRawPointer: PushTransfer] = [:]
    /// Pushes whose provider is still making its credential, with when they
    /// started waiting: asked again every turn, failed after the push timeout.
    private var waiting: [(push: PendingPush, since: Date)] = []
    /// Per provider: from the INVITE that started a call to its
    /// incoming-call push's first byte on the wire. Logged when the client
    /// stops, for benchmarks (sip-scenarios/bench-calls).
    private var requestLatency: [String: LatencyHistogram] = [:]

    init(settings: PushClientSettings, queue: PushRequestQueue, logger: Logger, reporter: PushResultReporter) {
        self.settings = settings
        self.queue = queue
        self.logger = logger
        self.reporter = reporter
    }

    /// Sends pushes until shutdown is asked and the pushes in flight have
    /// ended; false when libcurl could not start (every push then fails).
    func run() -> Bool {
        guard curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK, let multi = curl_multi_init() else {
            for work in queue.markStopped() {
                fail(work, result: PushResult(kind: .failed, detail: "libcurl could not start"),
                     answer: .transportFailure(PushTransportFailure(reason: .setup, message: "libcurl could not start")))
            }
            return false
        }
        defer { curl_global_cleanup() }
        swk_curl_multi_setopt_long(multi, CURLMOPT_PIPELINING, CURLPIPE_MULTIPLEX)
        swk_curl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, max(1, settings.maxConnections))
        swk_curl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, max(1, settings.maxConnections))
        queue.attach(PushThreadWakeup(multi: multi))
        logger.debug("push client started")

        while true {
            let (work, stopping) = queue.take()
            let parked = waiting
            waiting.removeAll()
            for (push, since) in parked { start(push, on: multi, waitingSince: since) }
            for item in work {
                switch item {
                case .push(let push): start(push, on: multi, waitingSince: nil)
                case .request(let pending): send(pending.request, on: multi, onAnswer: pending.completion)
                }
            }
            var running: Int32 = 0
            curl_multi_perform(multi, &running)
            collectFinished(on: multi)
            if stopping {
                for (push, _) in waiting { finish(push, with: Self.stopped) }
                waiting.removeAll()
                if transfers.isEmpty { break }
            }
            // Pushes waiting for a credential are asked again soon.
            curl_multi_poll(multi, nil, 0, waiting.isEmpty ? 1000 : Self.credentialPollMilliseconds, nil)
        }

        for work in queue.markStopped() { fail(work, result: Self.stopped, answer: PendingWork.stoppedAnswer) }
        curl_multi_cleanup(multi)
        if !requestLatency.isEmpty {
            var metadata: Logger.Metadata = [:]
            for (provider, histogram) in requestLatency {
                metadata["latency.invite_to_request_sent.\(provider)"] = "\(histogram.summary)"
            }
            logger.info("push latency", metadata: metadata)
        }
        logger.debug("push client stopped")
        return true
    }

    static let stopped = PushResult(kind: .failed, detail: "push client stopped")
    /// How often a push waiting for its provider's credential asks again.
    static let credentialPollMilliseconds: Int32 = 20

    /// Counts and logs the result, then tells the caller.
    private func finish(_ push: PendingPush, with result: PushResult) {
        reporter.finish(push.message, provider: push.provider.name, with: result,
                        took: ContinuousClock.now - push.queuedAt, completion: push.completion)
    }

    /// Ends `work` that will not be sent: a push with `result`, an exchange with `answer`.
    private func fail(_ work: PendingWork, result: PushResult, answer: PushHTTPAnswer) {
        switch work {
        case .push(let push): finish(push, with: result)
        case .request(let pending): pending.completion(answer)
        }
    }

    private func start(_ push: PendingPush, on multi: UnsafeMutableRawPointer, waitingSince: Date?) {
        let now = Date()
        switch push.provider.request(for: push.message, at: now) {
        case .send(let request):
            // The loop outlives its transfers: each is ended before `run()` returns.
            let transfer = send(request, on: multi) { [unowned self] answer in
                finish(push, with: push.provider.classify(answer, to: request))
            }
            if push.message.event == .incomingCall {
                let provider = push.provider.name, callStartedAt = push.message.callStartedAt
                transfer?.onSent = { [unowned self] sentAt in
                    let histogram = requestLatency[provider] ?? LatencyHistogram()
                    requestLatency[provider] = histogram
                    histogram.record(.microseconds(Int64(sentAt.timeIntervalSince(callStartedAt) * 1_000_000)))
                }
            }
        case .refuse(let result):
            finish(push, with: result)
            return
        case .waitForCredential:
            let since = waitingSince ?? now
            if now.timeIntervalSince(since) >= settings.timeout {
                finish(push, with: .retryable(status: nil, detail: "no \(push.provider.name) credential yet"))
            } else {
                waiting.append((push, since))
            }
        }
    }

    /// Starts sending `request`; `onAnswer` is called once, on this thread,
    /// with the answer or the reason there was none. Returns the transfer
    /// in flight, nil when it could not start.
    @discardableResult
    private func send(_ request: PushHTTPRequest, on multi: UnsafeMutableRawPointer,
                      onAnswer: @escaping (PushHTTPAnswer) -> Void) -> PushTransfer? {
        guard let easy = curl_easy_init() else {
            onAnswer(.transportFailure(PushTransportFailure(reason: .setup, message: "libcurl could not start")))
            return nil
        }
        let transfer = PushTransfer(request: request, errorBufferSize: Int(CURL_ERROR_SIZE), onAnswer: onAnswer)
        let body = request.body
        swk_curl_easy_setopt_string(easy, CURLOPT_URL, request.url)
        if request.method != "POST" { swk_curl_easy_setopt_string(easy, CURLOPT_CUSTOMREQUEST, request.method) }
        swk_curl_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        swk_curl_easy_setopt_long(easy, CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_2TLS)
        // Wait for a connection that can multiplex rather than open a new one per push (HTTP/2).
        swk_curl_easy_setopt_long(easy, CURLOPT_PIPEWAIT, 1)
        swk_curl_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, Self.milliseconds(request.timeout ?? settings.timeout))
        swk_curl_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(settings.connectTimeout))
        swk_curl_easy_setopt_string(easy, CURLOPT_USERAGENT, "sipwake")
        swk_curl_easy_setopt_pointer(easy, CURLOPT_HTTPHEADER, transfer.headerList)
        swk_curl_easy_setopt_long(easy, CURLOPT_POSTFIELDSIZE, body.count)
        body.withUnsafeBytes { bytes in
            // COPYPOSTFIELDS copies the body: it need not outlive this call.
            _ = swk_curl_easy_setopt_pointer(easy, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress))
        }
        if let caFile = settings.caFile { swk_curl_easy_setopt_string(easy, CURLOPT_CAINFO, caFile) }
        swk_curl_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, transfer.errorBuffer)
        swk_curl_easy_setopt_write_function(easy) { data, size, count, context in
            guard let data, let context else { return 0 }
            let transfer = Unmanaged<PushTransfer>.fromOpaque(context).takeUnretainedValue()
            transfer.append(UnsafeRawBufferPointer(start: data, count: size * count))
            return size * count
        }
        swk_curl_easy_setopt_header_function(easy) { data, size, count, context in
            guard let data, let context else { return 0 }
            let transfer = Unmanaged<PushTransfer>.fromOpaque(context).takeUnretainedValue()
            transfer.appendHeaderLine(UnsafeRawBufferPointer(start: data, count: size * count))
            return size * count
        }
        // `transfers` keeps the transfer alive until its handle is removed.
        swk_curl_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, Unmanaged.passUnretained(transfer).toOpaque())
        swk_curl_easy_setopt_pointer(easy, CURLOPT_HEADERDATA, Unmanaged.passUnretained(transfer).toOpaque())
        let added = curl_multi_add_handle(multi, easy)
        guard added == CURLM_OK else {
            curl_easy_cleanup(easy)
            onAnswer(.transportFailure(PushTransportFailure(reason: .setup, message: String(cString: curl_multi_strerror(added)))))
            return nil
        }
        transfers[easy] = transfer
        return transfer
    }

    private func collectFinished(on multi: UnsafeMutableRawPointer) {
        var left: Int32 = 0
        while let message = curl_multi_info_read(multi, &left) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            let code = message.pointee.data.result
            // The message is freed by curl_multi_remove_handle: everything is read above.
            curl_multi_remove_handle(multi, easy)
            guard let transfer = transfers.removeValue(forKey: easy) else {
                curl_easy_cleanup(easy)
                continue
            }
            if let onSent = transfer.onSent {
                // Microseconds from the transfer's start to its first byte sent.
                var pretransfer: curl_off_t = 0
                if swk_curl_easy_getinfo_off_t(easy, CURLINFO_PRETRANSFER_TIME_T, &pretransfer) == CURLE_OK, pretransfer > 0 {
                    onSent(transfer.startedAt.addingTimeInterval(Double(pretransfer) / 1_000_000))
                }
            }
            let answer: PushHTTPAnswer
            if code == CURLE_OK {
                var status = 0
                swk_curl_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
                answer = .response(status: status, headers: transfer.headers, body: transfer.body)
            } else {
                let message = transfer.errorMessage
                answer = .transportFailure(PushTransportFailure(
                    reason: Self.reason(of: code),
                    message: message.isEmpty ? String(cString: curl_easy_strerror(code)) : message))
            }
            curl_easy_cleanup(easy)
            transfer.onAnswer(answer)
        }
    }

    /// Timeouts and network errors are worth retrying; a bad URL, protocol
    /// or certificate is not.
    static func reason(of code: CURLcode) -> PushTransportFailure.Reason {
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            return .timeout
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT, CURLE_PEER_FAILED_VERIFICATION,
             CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CERTPROBLEM, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
             CURLE_NOT_BUILT_IN, CURLE_FAILED_INIT, CURLE_BAD_FUNCTION_ARGUMENT, CURLE_OUT_OF_MEMORY:
            return .setup
        default:
            return .network
        }
    }

    private static func milliseconds(_ seconds: Double) -> Int {
        guard seconds.isFinite, seconds > 0 else { return 1 }
        return Int(min(seconds * 1000, Double(Int32.max)).rounded(.up))
    }
}
