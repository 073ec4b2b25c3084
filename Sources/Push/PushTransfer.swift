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
        if bytes.starts(with: "HTTP/".utf8) {
            headers.removeAll()
            return
        }
        guard headers.count < Self.maxHeaderCount, let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return }
        let name = Self.trimmed(bytes[..<colon])
        guard !name.isEmpty else { return }
        let value = Self.trimmed(bytes[(colon + 1)...])
        headers.append(PushHTTPHeader(String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self)))
    }

    /// Without the spaces, tabs and line ends around it (byte by byte:
    /// Foundation's `trimmingCharacters` was a tenth of this thread's time).
    static func trimmed(_ bytes: Slice<UnsafeRawBufferPointer>) -> Slice<UnsafeRawBufferPointer> {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }),
              let last = bytes.lastIndex(where: { !isSpace($0) }) else { return bytes[bytes.startIndex..<bytes.startIndex] }
        return bytes[first...last]
    }

    var errorMessage: String {
        String(cString: errorBuffer)
    }
}
