import Foundation
import Logging
import Model
import SIPCore

/// What went wrong for the INVITE branches sipwake stopped before the device
/// said anything (`RetiredBranchFailure`, from the agent), made visible:
/// each is counted in `sipwake_stopped_branch_failures_total` by kind and
/// logged as a warning. A CANCEL or ACK not sent is told as it happens (it
/// needs a device ringing on a stopped INVITE). Branches forgotten before
/// Timer C come in floods (only when 10,000 stopped branches are kept, that
/// is under a storm of calls), so they are told at most once a minute, with
/// how many since the last warning (`ThrottledCount`). Loop thread only.
struct StoppedBranchFailures {
    static let warningInterval: TimeInterval = 60

    private let metrics: CallMetrics
    private let logger: Logger
    private var forgotten = ThrottledCount(interval: Self.warningInterval)

    init(metrics: CallMetrics, logger: Logger) {
        self.metrics = metrics
        self.logger = logger
    }

    mutating func record(_ failure: RetiredBranchFailure, now: Date) {
        switch failure {
        case .cancelNotSent(let branch, let status):
            metrics.stoppedBranchCancelNotSent.increment()
            logger.warning("stopped branch cancel not sent", metadata: [
                "sip.branch": "\(branch)", "sip.status": .stringConvertible(status)])
        case .ackNotSent(let branch, let status):
            metrics.stoppedBranchAckNotSent.increment()
            logger.warning("stopped branch ack not sent", metadata: [
                "sip.branch": "\(branch)", "sip.status": .stringConvertible(status)])
        case .forgottenEarly(let count):
            metrics.stoppedBranchesForgottenEarly.increment(by: count)
            if let untold = forgotten.add(count, now: now) { warnForgotten(untold) }
        }
    }

    /// Every tick: tells the branches forgotten since the last warning once
    /// a minute has passed.
    mutating func tick(now: Date) {
        if let untold = forgotten.due(now: now) { warnForgotten(untold) }
    }

    private func warnForgotten(_ count: Int) {
        logger.warning("stopped branches forgotten before timer c", metadata: [
            "branches.count": .stringConvertible(count)])
    }
}
