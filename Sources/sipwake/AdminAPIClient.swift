import CCurl
import Config
import Foundation

/// The CLI's way to the running server, for what only it knows (the calls in
/// progress): a GET on its admin API at `[http] listen`, with the
/// `[http] admin_token` of the same configuration, over libcurl.
struct AdminAPIClient {
    /// Answers larger than this are refused: the server's own pages are far smaller.
    static let maxAnswerBytes = 32 * 1024 * 1024

    let baseURL: String
    let token: String

    /// - Throws: a `CLIError` saying which key to set when the configuration
    ///   has no HTTP listener or no admin token.
    init(config: SipwakeConfig, what: String) throws {
        guard let listen = config.http.listen else {
            throw CLIError("\(what) come from the running server's admin API: set [http] listen and admin_token")
        }
        guard !config.http.adminToken.isEmpty else {
            throw CLIError("\(what) come from the running server's admin API: set [http] admin_token")
        }
        // A server listening on every address is reached on loopback.
        var host = listen.host
        if host == "0.0.0.0" || host.isEmpty { host = "127.0.0.1" }
        if host == "::" { host = "::1" }
        if host.contains(":") { host = "[\(host)]" }
        baseURL = "http://\(host):\(listen.port)"
        token = config.http.adminToken
    }

    /// GETs `path` (from `/admin/v1/`); the body of a 200.
    /// - Throws: a `CLIError` naming the server's address when it cannot be
    ///   reached, refuses the token, or answers with an error.
    func get(_ path: String) throws -> Data {
        guard let easy = curl_easy_init() else { throw CLIError("libcurl could not start") }
        defer { curl_easy_cleanup(easy) }
        let url = baseURL + "/admin/v1/" + path
        let answer = AdminAnswer()
        var headers: UnsafeMutablePointer<curl_slist>?
        headers = curl_slist_append(headers, "Authorization: Bearer \(token)")
        defer { curl_slist_free_all(headers) }
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        swk_curl_easy_setopt_string(easy, CURLOPT_URL, url)
        swk_curl_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        swk_curl_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, 10_000)
        swk_curl_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, 3_000)
        swk_curl_easy_setopt_string(easy, CURLOPT_USERAGENT, "sipwake-cli")
        swk_curl_easy_setopt_pointer(easy, CURLOPT_HTTPHEADER, headers)
        swk_curl_easy_setopt_write_function(easy) { data, size, count, context in
            guard let data, let context else { return 0 }
            let answer = Unmanaged<AdminAnswer>.fromOpaque(context).takeUnretainedValue()
            let bytes = size * count
            // Returning less than given makes libcurl stop with a write error.
            guard answer.body.count + bytes <= AdminAPIClient.maxAnswerBytes else { return 0 }
            answer.body.append(UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: bytes)
            return bytes
        }
        let code = errorBuffer.withUnsafeMutableBufferPointer { buffer -> CURLcode in
            swk_curl_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, buffer.baseAddress)
            return withExtendedLifetime(answer) {
                swk_curl_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, Unmanaged.passUnretained(answer).toOpaque())
                return curl_easy_perform(easy)
            }
        }
        guard code == CURLE_OK else {
            let detail = String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let reason = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
            throw CLIError("cannot reach the running server at \(baseURL) (\(reason)): is sipwake serve running with this config?")
        }
        var status = 0
        swk_curl_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        switch status {
        case 200:
            return answer.body
        case 401:
            throw CLIError("the server at \(baseURL) refused the admin token: it runs with another [http] admin_token")
        case 429:
            throw CLIError("the server at \(baseURL) is blocking this address after wrong admin tokens: try again in a minute")
        default:
            let message = (try? JSONSerialization.jsonObject(with: answer.body) as? [String: Any])?["error"] as? String
            throw CLIError("the server at \(baseURL) answered \(status)\(message.map { ": \($0)" } ?? "")")
        }
    }
}

/// The body of one admin API answer, filled by libcurl's write callback on
/// the calling thread, during `curl_easy_perform`.
private final class AdminAnswer {
    var body = Data()
}
