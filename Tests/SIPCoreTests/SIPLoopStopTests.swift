import Foundation
import Glibc
import Synchronization
@testable import SIPCore
import Testing

/// Work handed to a loop that has ended (a late push answer at shutdown) is
/// dropped; in particular no wake-up byte goes to the closed pipe's
/// descriptor, which the process may already use for something else.
@Suite struct SIPLoopStopTests {
    @Test func workAfterTheLoopEndedIsDroppedAndWritesNothing() throws {
        let loop = SIPLoop(name: "stop-test")
        try loop.start()
        let old = loop.wakeDescriptor
        loop.stop()
        let deadline = Date().addingTimeInterval(5)
        while !loop.isFinished, Date() < deadline { usleep(1000) }
        try #require(loop.isFinished)

        // Take descriptors until one reuses the wake pipe's old number (the
        // lowest free one is handed out first, so this comes quickly).
        var pipes: [[Int32]] = []
        defer { for p in pipes { close(p[0]); close(p[1]) } }
        var reused: [Int32]?
        for _ in 0..<64 where reused == nil {
            var fds: [Int32] = [-1, -1]
            try #require(pipe(&fds) == 0)
            _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
            pipes.append(fds)
            if fds[1] == old { reused = fds }
        }
        let ran = Ran()
        loop.execute { ran.mark() }
        loop.stop()
        usleep(50_000)
        #expect(!ran.value, "work ran after the loop ended")
        if let reused {
            var byte: UInt8 = 0
            #expect(read(reused[0], &byte, 1) == -1, "a wake-up byte went to a descriptor that is no longer the loop's")
        }
    }
}

/// Set from whichever thread runs the work.
private final class Ran: Sendable {
    private let flag = Mutex(false)
    var value: Bool { flag.withLock { $0 } }
    func mark() { flag.withLock { $0 = true } }
}
