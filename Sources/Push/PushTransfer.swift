import CCurl
import Foundation

/// One push in flight on the HTTP thread: its request headers, the
/// provider's answer as it arrives, libcurl's error text, and who to tell
/// when it ends. Only the HTTP thread touches it.
final class PushTransfer {
    /// The most of an answer body kept; the rest is read and dropped.
    static let maxBodySize = 64 * 1024

    let push: PendingPush
    private(set) var body = Data()
    /// CURLOPT_HTTPHEADER: the request's header lines, freed with the transfer.
    let headerList: UnsafeMutablePointer<curl_slist>?
    /// CURLOPT_ERRORBUFFER: libcurl writes its detailed error message here.
    let errorBuffer: UnsafeMutablePointer<CChar>

    init(push: PendingPush, errorBufferSize: Int) {
        self.push = push
        var list: UnsafeMutablePointer<curl_slist>?
        for header in push.request.headers { list = curl_slist_append(list, "\(header.name): \(header.value)") }
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

    var errorMessage: String {
        String(cString: errorBuffer)
    }
}
