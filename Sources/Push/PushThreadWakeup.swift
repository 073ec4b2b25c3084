import CCurl

/// The HTTP thread's multi handle, seen from other threads: all they may do
/// with it is wake the thread.
///
/// `@unchecked Sendable` is safe because the only call made through it is
/// `curl_multi_wakeup`, which libcurl documents as callable from any thread,
/// and ``PushRequestQueue`` makes that call only under its lock, while the
/// handle is attached: the HTTP thread detaches it under the same lock
/// before `curl_multi_cleanup`.
struct PushThreadWakeup: @unchecked Sendable {
    private let multi: UnsafeMutableRawPointer

    init(multi: UnsafeMutableRawPointer) {
        self.multi = multi
    }

    func wake() {
        curl_multi_wakeup(multi)
    }
}
