import CCurl
import Foundation
import Ports

/// One exchange in flight on the HTTP thread (a push, or a request given to
/// ``PushClient/perform(_:)``): the request, the answer (headers and body) as
/// it arrives, libcurl's error text, and who to tell when it ends. Only the
/// HTTP thread touches it.
final class PushTransfer {
    /// The most of an answer body kept; the rest is read and dropped.
    static let maxBodySize = 64 * 1024
    /// The most answer header lines kept; the rest are dropped.
    static let maxHeaderCount = 100

    let request: PushHTTPRequest
    /// Called once, on the HTTP thread, with the answer.
    let onAnswer: (PushHTTPAnswer) -> Void
    /// When the transfer was handed to libcurl.
    let startedAt = Date()
    /// Called before ``onAnswer``, when the request went out, with the
    /// moment its first byte was sent.
    var onSent: ((Date) -> Void)?
    private(set) var body = Data()
    /// The answer's header lines, in order, as the provider reads them.
    private(set) var headers: [PushHTTPHeader] = []
    /// CURLOPT_HTTPHEADER: the request's header lines, freed with the transfer.
    let headerList: UnsafeMutablePointer<curl_slist>?
    /// CURLOPT_ERRORBUFFER: libcurl writes its detailed error message here.
    let errorBuffer: UnsafeMutablePointer<CChar>

    init(request: PushHTTPRequest, errorBufferSize: Int, onAnswer: @escaping (PushHTTPAnswer) -> Void) {
        self.request = request
        self.onAnswer = onAnswer
        var list: UnsafeMutablePointer<curl_slist>?
        for header in request.headers { list = curl_slist_append(list, "\(header.name): \(header.value)") }
        headerList = list
        errorBuffer = .allocate(capacity: errorBufferSize)
        errorBuffer.initialize(repeating: 0, count: errorBufferSize)
    }

    deinit {
        curl_slist_free_all(headerList)
        errorBuffer.deallocate()
    }

    func append(_ bytes: UnsafeRawBufferPointer) {
        let room = Self.maxBodySize - body.count
        if room > 0 { body.append(contentsOf: bytes.prefix(room)) }
    }

    /// Takes one header line of the answer. A status line starts the headers
    /// afresh: after `100 Continue` only the final answer's headers count.
    func appendHeaderLine(_ bytes: UnsafeRawBufferPointer) {
        let line = String(decoding: bytes, as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            headers.removeAll()
            return
        }
        guard headers.count < Self.maxHeaderCount, let colon = line.firstIndex(of: ":") else { return }
        let name = line[..<colon].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { return }
        let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
        headers.append(PushHTTPHeader(name, value))
    }

    var errorMessage: String {
        String(cString: errorBuffer)
    }
}
