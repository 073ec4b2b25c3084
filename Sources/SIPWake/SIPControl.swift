import Config
import Model
import Registrar
import Synchronization

/// The running SIP server, for the parts of `sipwake serve` outside the SIP
/// service that need it while it runs: the admin API's live calls and the
/// reload. Everything it asks runs on the SIP loop, as a job among the
/// others; before the server starts and after it stops there is no server.
public final class SIPControl: Sendable {
    private let server = Mutex<SIPServer?>(nil)

    public init() {}

    func attach(_ running: SIPServer) {
        server.withLock { $0 = running }
    }

    func detach() {
        server.withLock { $0 = nil }
    }

    /// The records of the calls in progress now, oldest first; nil when the
    /// SIP server is not running.
    public func liveCalls() async -> [CallRecord]? {
        guard let running = server.withLock({ $0 }) else { return nil }
        return await running.liveCalls()
    }

    /// Hands the push settings of a reloaded `config` to the SIP loop; false
    /// when the SIP server is not running.
    @discardableResult
    func reloadPush(config: SipwakeConfig, pnsDirectory: PNSDirectory) async -> Bool {
        guard let running = server.withLock({ $0 }) else { return false }
        await running.reloadPush(config: config, pnsDirectory: pnsDirectory)
        return true
    }
}
