import Config
import Foundation
import Logging
import Metrics
import Model
import Ports
import Push
import Registrar
import SIPCore
import ServiceLifecycle

/// `sipwake serve`'s SIP side as a Service: it loads the saved bindings and
/// users, starts the SIP loop and the registrar, and on shutdown stops
/// taking requests, lets every pending REGISTER's commit finish and be
/// answered, and closes the listeners.
public struct SIPService: Service {
    /// How often a node sharing its store looks for calls of stopped nodes
    /// (a minute; shorter in tests).
    private let stoppedNodeSweepInterval: Duration
    private let config: SipwakeConfig
    private let stores: Stores
    private let bindingJournal: any BindingJournal
    private let callRecords: (any CallRecordSink)?
    private let push: PushClient?
    private let pnsDirectory: PNSDirectory
    private let tupleIndex: DeviceTupleIndex?
    private let logger: Logger
    private let metrics: any MetricsFactory
    private let ready: (@Sendable () -> Void)?
    private let control: SIPControl?

    /// `bindingJournal` commits the registrar's changes; `callRecords` keeps
    /// the story of each call, nil when none is kept. Both are started here
    /// and shut down when the service stops. `push` is the running push
    /// client, nil when pushes are off; `metrics` is where the registrar,
    /// authentication and flood counters go. `control`, when given, holds
    /// the server while it runs (live calls, reloads).
    public init(config: SipwakeConfig, stores: Stores, bindingJournal: any BindingJournal,
                callRecords: (any CallRecordSink)?, push: PushClient? = nil,
                pnsDirectory: PNSDirectory = PNSDirectory(apps: []), tupleIndex: DeviceTupleIndex? = nil,
                logger: Logger, metrics: any MetricsFactory, control: SIPControl? = nil,
                stoppedNodeSweepInterval: Duration = .seconds(60), ready: (@Sendable () -> Void)? = nil) {
        self.stoppedNodeSweepInterval = stoppedNodeSweepInterval
        self.control = control
        self.pnsDirectory = pnsDirectory
        self.tupleIndex = tupleIndex
        self.config = config
        self.metrics = metrics
        self.stores = stores
        self.bindingJournal = bindingJournal
        self.callRecords = callRecords
        self.push = push
        self.logger = logger
        self.ready = ready
    }

    public func run() async throws {
        closeOpenCallRecords()
        let userStore = stores.users
        // The deletion feed's head before the load: a delete in between is
        // applied twice, harmlessly, rather than missed.
        let deletionsHead = try stores.bindings.deletionsHead()
        let eventsHead = try stores.bindingEvents?.head()
        let bindings = try stores.bindings.loadAll()
        let usersVersion = try userStore.usersVersion()
        let users = try userStore.list()
        if let tupleIndex {
            // A failure is logged; calls read the database until a catch-up succeeds.
            tupleIndex.refresh(from: stores.tuples)
            let held = tupleIndex.counts
            logger.debug("device tuples loaded", metadata: ["tuples.count": .stringConvertible(held.tuples), "users.count": .stringConvertible(held.users)])
        }

        if !config.auth.enabled {
            logger.warning("digest authentication is disabled: anyone can register any user; use only in a lab")
        }

        var tlsDirectory: TLSCertificateDirectory?
        if !config.tls.certificate.isEmpty {
            tlsDirectory = try TLSCertificateDirectory(certificate: config.tls.certificate, key: config.tls.key)
        }
        defer { tlsDirectory?.remove() }

        let listeners = config.sip.listen.map { address in
            SIPListener(transport: SIPTransport(rawValue: address.transport.rawValue) ?? .udp,
                        host: address.host, port: address.port,
                        certificateDirectory: address.transport == .tls ? tlsDirectory?.path : nil)
        }
        var secret = Array(config.auth.secret.utf8)
        if secret.isEmpty { secret = (0..<32).map { _ in UInt8.random(in: .min ... .max) } }
        let settings = RegistrarSettings(config: config, nonceSecret: secret)

        let writer = bindingJournal
        writer.start()
        // Call records are written off the loop.
        let records = callRecords
        records?.start()
        let callSettings = CallProxySettings(config: config, tokenSecret: secret, pushEnabled: push != nil)
        let loop = SIPLoop()
        try loop.start()
        let server = SIPServer(
            loop: loop, listeners: listeners,
            options: SIPAgentOptions(maxMessageSize: config.sip.maxMessageSize),
            settings: settings, writer: writer, directory: UserDirectory(store: userStore),
            callSettings: callSettings, tuples: stores.tuples, records: records, push: push,
            pnsDirectory: pnsDirectory, tupleIndex: tupleIndex, logger: logger, metrics: metrics)
        do {
            try await server.start(bindings: bindings, users: users, usersVersion: usersVersion)
        } catch {
            writer.shutdown()
            records?.shutdown()
            loop.stop()
            throw error
        }
        control?.attach(server)
        ready?()

        // Runs until SIGTERM/SIGINT (ServiceGroup's graceful shutdown) or
        // cancellation; the timers and user lookups end with it.
        await withDiscardingTaskGroup { group in
            group.addTask { await server.runHousekeeping() }
            group.addTask { await server.runUserRefresh() }
            group.addTask { await server.runUserLookups() }
            group.addTask { await server.runTupleRefresh() }
            group.addTask { await server.runLoopLagProbe() }
            group.addTask { [bindingStore = stores.bindings] in
                await server.runBindingDeletions(store: bindingStore, from: deletionsHead)
            }
            if stores.isShared {
                group.addTask { await self.runStoppedNodeSweep() }
            }
            if let notifications = stores.notifications {
                group.addTask { await server.runStoreNotifications(notifications) }
            }
            if let feed = stores.bindingEvents, let eventsHead {
                group.addTask { await server.runBindingEvents(feed: feed, from: eventsHead) }
            }
            try? await gracefulShutdown()
            group.cancelAll()
        }

        control?.detach()
        logger.info("sip shutting down")
        await server.beginShutdown()
        // Commit what is queued; its REGISTERs are answered on the loop.
        await Self.waitOffThePool { writer.shutdown() }
        await server.drainReplies()
        // Calls in progress end `interrupted` and their devices are told now:
        // the push client stops after this service, so the missed-call pushes
        // still leave, and each is answered within push.timeout.
        await server.interruptCalls(waitingAtMost: .seconds(config.push.timeout + 1))
        let remaining = await server.bindingCount
        let tupleWork = await server.tupleWork
        await server.stop()
        loop.stop()
        // Stale tokens deleted and push answers of the ended calls reach the
        // database before it closes.
        await Self.waitOffThePool { tupleWork?.drain() }
        await Self.waitOffThePool { records?.shutdown() }
        logger.info("sip stopped", metadata: ["bindings.count": .stringConvertible(remaining)])
    }

    /// Runs a call that blocks until a writer thread has drained (its
    /// shutdown) on a thread of its own, so Swift's cooperative threads never
    /// wait on the disk.
    private static func waitOffThePool(_ body: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                body()
                continuation.resume()
            }
        }
    }

    /// With several nodes on one store: every minute, the open records of
    /// a node that stopped without closing them (killed, crashed, cut off)
    /// are closed `interrupted` by the nodes still running.
    private func runStoppedNodeSweep() async {
        while (try? await Task.sleep(for: stoppedNodeSweepInterval)) != nil {
            // Unreadable records were reported at start; not again every minute.
            await Self.waitOffThePool { [self] in closeOpenCallRecords(reportingUnreadable: false) }
        }
    }

    /// Records a crash left open (no outcome, no end) are closed
    /// `interrupted`: no call survives a restart. With several nodes on one
    /// store, only the records of nodes that are not running. Failures are
    /// counted in `sipwake_call_record_close_failures_total`.
    private func closeOpenCallRecords(reportingUnreadable: Bool = true) {
        do {
            let result = try stores.callRecords.closeOpenRecords()
            if result.closed > 0 {
                logger.info("open call records closed as interrupted", metadata: ["call_records.count": .stringConvertible(result.closed)])
            }
            guard reportingUnreadable else { return }
            for id in result.unreadable {
                closeFailures(reason: "unreadable").increment()
                logger.warning("open call record unreadable, left open", metadata: ["call.record_id": "\(id)"])
            }
        } catch {
            closeFailures(reason: "store").increment()
            logger.warning("open call records not closed", metadata: ["error": "\(error)"])
        }
    }

    private func closeFailures(reason: String) -> Counter {
        Counter(label: "sipwake_call_record_close_failures_total", dimensions: [("reason", reason)], factory: metrics)
    }
}

extension SIPService: CustomStringConvertible {
    /// Keeps the config (and its nonce secret) out of lifecycle logs.
    public var description: String { "SIPService" }
}
