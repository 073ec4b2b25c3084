import Foundation
import Logging
import Model
import Ports
import SIPCore

/// The INVITEs for local users refused before a call started (an unknown
/// user, failed credentials, a loop): each gets a call record with the
/// outcome `rejected`, the status sent and why, so that "why didn't the
/// phone ring?" has an answer when the PBX sent the wrong user or the
/// caller's credentials failed. At most `RejectedCallCap.perMinute`
/// records a minute; the refusals beyond are counted
/// (`sipwake_calls_rejected_unrecorded_total`) and one warning a minute
/// says so. The record goes to the call-record writer (off the loop).
/// Loop thread only.
struct RejectedCalls {
    private let sink: (any CallRecordSink)?
    private var cap: RejectedCallCap
    private let metrics: CallMetrics
    private let logger: Logger

    init(sink: (any CallRecordSink)?, cap: RejectedCallCap = RejectedCallCap(), metrics: CallMetrics, logger: Logger) {
        self.sink = sink
        self.cap = cap
        self.metrics = metrics
        self.logger = logger
    }

    /// `request` (an INVITE) is answered `status` for `reason`; `callee` is
    /// the AOR, or the Request-URI's user (nil when it has none).
    mutating func refused(_ request: IncomingRequest, callee: String?, status: Int, reason: String, now: Date) {
        let message = request.message
        metrics.rejected.increment()
        metrics.ended[.rejected]?.increment()
        logger.debug("call rejected", metadata: [
            "sip.call_id": "\(message.callID ?? "")", "call.callee": "\(callee ?? "")", "sip.status": .stringConvertible(status),
            "call.reason": "\(reason)", "client.address": "\(request.source.host)"])
        guard let sink else { return }
        switch cap.decide(now: now) {
        case .record:
            let from = message.fromURI
            sink.save(Self.record(
                id: UUID.random().uuidString, pairingID: CallProxy.pushID(of: message) ?? "", callID: message.callID ?? "",
                callee: callee?.lowercased() ?? "", caller: from?.description ?? "",
                callerDisplayName: message.fromDisplay.flatMap { $0.isEmpty ? nil : CallProxy.unquote($0) },
                source: request.source, at: now,
                status: status, reason: reason))
        case .skip(let first):
            metrics.rejectedUnrecorded.increment()
            if first {
                logger.warning("rejected calls not recorded: over the cap", metadata: [
                    "calls.rejected_records_per_minute": .stringConvertible(cap.perMinute)])
            }
        }
    }

    /// The record of a refused call: it starts and ends at `at`, with no
    /// push and no branch.
    static func record(id: String, pairingID: String, callID: String, callee: String, caller: String,
                       callerDisplayName: String?, source: BindingSource, at: Date, status: Int,
                       reason: String) -> CallRecord {
        CallRecord(
            id: id, pairingID: pairingID, callID: callID, callee: callee, caller: caller,
            callerDisplayName: callerDisplayName, startedAt: at, endedAt: at, outcome: .rejected, finalStatus: status,
            events: [
                CallEventRecord(at: at, event: "invite received", detail: caller),
                CallEventRecord(at: at, event: "call rejected",
                                detail: "status=\(status) source=\(source.transport.rawValue):\(source.host):\(source.port)"),
            ],
            reason: reason)
    }
}
