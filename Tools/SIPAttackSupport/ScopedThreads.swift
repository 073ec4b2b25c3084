import Dispatch
import Foundation

/// Threads that live inside one call: started, then `main` runs on the
/// calling thread, then `stop` is called and every thread is joined before the
/// call returns (also when `main` throws). The tools block on sockets with
/// deadlines, so they use threads rather than tasks, which must not block the
/// cooperative pool. Each background body must return once `stop` was called.
public enum ScopedThreads {
    public static func run<T>(
        _ background: [(name: String, body: @Sendable () -> Void)],
        stop: () -> Void,
        main: () throws -> T
    ) rethrows -> T {
        var finished: [DispatchSemaphore] = []
        for item in background {
            let done = DispatchSemaphore(value: 0)
            let body = item.body
            let thread = Thread {
                body()
                done.signal()
            }
            thread.name = item.name
            thread.start()
            finished.append(done)
        }
        defer {
            stop()
            for done in finished { done.wait() }
        }
        return try main()
    }
}
