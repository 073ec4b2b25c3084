import Foundation
import Model
import Ports
import SIPWake

/// How the CLI shows call records: a list row per call, and the story of
/// one call (header, pushes, branches, timeline) with times as offsets from
/// the INVITE.
enum CallsOutput {
    /// REASON, last: it has spaces (why a `rejected` call was refused).
    static let listHeaders = ["STARTED", "PAIRING-ID", "CALLEE", "CALLER", "OUTCOME", "STATUS", "PUSHES",
                              "BRANCHES", "ANSWER", "DURATION", "REASON"]

    static func listRow(_ r: CallRecord) -> [String] {
        [JSONOutput.timestamp(r.startedAt), orDash(r.pairingID), orDash(r.callee), orDash(r.caller), outcome(r),
         r.finalStatus.map(String.init) ?? "-", String(r.pushes.count), String(r.branches.count), timeToAnswer(r),
         duration(r), r.reason ?? "-"]
    }

    /// A value a refused call may lack (no `X-Push-ID`, no user in its Request-URI): `-` when empty.
    static func orDash(_ value: String) -> String {
        value.isEmpty ? "-" : value
    }

    /// The whole story, ready to print.
    static func story(_ r: CallRecord) -> String {
        var header = TextTable(headers: ["FIELD", "VALUE"])
        let caller = r.callerDisplayName.map { "\"\($0)\" <\(r.caller)>" } ?? r.caller
        var fields: [(String, String)] = [
            ("record id", r.id), ("pairing id", orDash(r.pairingID)), ("call-id", r.callID),
            ("callee", orDash(r.callee)), ("caller", orDash(caller)), ("outcome", outcome(r)),
        ]
        if let reason = r.reason { fields.append(("reason", reason)) }
        fields += [
            ("final status", r.finalStatus.map(String.init) ?? "-"), ("answered by", r.answeredBy ?? "-"),
            ("started", ISO8601Time.milliseconds(r.startedAt)),
            ("ended", r.endedAt.map(ISO8601Time.milliseconds) ?? "-"),
        ]
        if r.outcome == .answered { fields += [("answered after", timeToAnswer(r)), ("hung up", hungUp(r))] }
        fields.append(("duration", duration(r)))
        for (name, value) in fields { header.append([name, value]) }

        var pushes = TextTable(headers: ["ATTEMPT", "VERB", "SELECTOR", "TUPLE", "SENT", "RESULT", "HTTP", "DETAIL"])
        for p in r.pushes {
            // The customer's webhook (selector `webhook`) has no tuple.
            let tuple = p.tupleID == 0 ? "-" : String(p.tupleID)
            pushes.append([String(p.attempt), p.verb, p.selector, tuple, offset(p.sentAt, from: r),
                           p.result ?? "in flight", p.httpStatus.map(String.init) ?? "-", p.detail ?? "-"])
        }
        var branches = TextTable(headers: ["ID", "CONTACT", "INSTANCE", "REASON", "STARTED", "PROVISIONAL", "FINAL",
                                           "CANCELLED"])
        // Finals sipwake made itself, with why, under the table.
        var ownFinals: [String] = []
        for b in r.branches {
            branches.append([String(b.id), shortContact(b.contact), b.instanceID ?? "-", b.reason, offset(b.startedAt, from: r),
                             response(b.provisionalStatus, b.provisionalAt, r),
                             final(b, r), b.cancelled ?? "-"])
            if let reason = b.finalReason {
                ownFinals.append("branch \(b.id): " + (b.finalStatus.map { "\($0) " } ?? "") + reason)
            }
        }
        var timeline = TextTable(headers: ["AT", "EVENT", "DETAIL"])
        for e in r.events {
            timeline.append([offset(e.at, from: r), e.event, e.detail ?? ""])
        }
        return [
            header.render(),
            section("Pushes", pushes, count: r.pushes.count),
            section("Branches", branches, count: r.branches.count)
                + (ownFinals.isEmpty ? "" : "\n" + ownFinals.map { "  \($0)" }.joined(separator: "\n")),
            section("Timeline", timeline, count: r.events.count),
        ].joined(separator: "\n\n")
    }

    /// The widest contact the branches table shows.
    static let contactWidth = 60

    /// A contact as the branches table shows it, so that a row fits a
    /// terminal: the address and its `transport`, `…` for the other URI
    /// parameters (an RFC 8599 `pn-prid` is a few hundred characters), cut
    /// to ``contactWidth``. `--json` keeps it whole.
    static func shortContact(_ contact: String) -> String {
        var parts = contact.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        let address = parts.removeFirst()
        let transport = parts.first { $0.lowercased().hasPrefix("transport=") }
        var short = address + (transport.map { ";" + $0 } ?? "")
        if parts.count > (transport == nil ? 0 : 1) { short += ";…" }
        return short.count > contactWidth ? String(short.prefix(contactWidth - 1)) + "…" : short
    }

    /// `pending` while the call runs.
    static func outcome(_ r: CallRecord) -> String {
        r.outcome?.rawValue ?? "pending"
    }

    /// An answered call's talk time, from the answer (its `endedAt`) to the
    /// BYE, `-` until sipwake saw one; any other call's length, from the
    /// INVITE to the caller's final response (how long it rang); `-` while
    /// the call runs.
    static func duration(_ r: CallRecord) -> String {
        guard let end = r.endedAt else { return "-" }
        guard r.outcome == .answered else { return span(from: r.startedAt, to: end) }
        return r.hungUpAt.map { span(from: end, to: $0) } ?? "-"
    }

    /// How long an answered call took to be answered (INVITE to the 2xx);
    /// `-` for any other call.
    static func timeToAnswer(_ r: CallRecord) -> String {
        guard r.outcome == .answered, let answered = r.endedAt else { return "-" }
        return span(from: r.startedAt, to: answered)
    }

    /// When and by whom an answered call was hung up, `-` until sipwake saw the BYE.
    static func hungUp(_ r: CallRecord) -> String {
        guard let at = r.hungUpAt else { return "-" }
        return ISO8601Time.milliseconds(at) + (r.hungUpBy.map { " by \($0.rawValue)" } ?? "")
    }

    /// `4.5s`, `1m05s`, `1h02m05s`.
    static func span(from start: Date, to end: Date) -> String {
        let tenths = Int((end.timeIntervalSince(start) * 10).rounded())
        if tenths < 600 { return "\(tenths / 10).\(abs(tenths % 10))s" }
        let seconds = tenths / 10
        func twoDigits(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }
        if seconds < 3600 { return "\(seconds / 60)m\(twoDigits(seconds % 60))s" }
        return "\(seconds / 3600)h\(twoDigits(seconds / 60 % 60))m\(twoDigits(seconds % 60))s"
    }

    /// Milliseconds since the INVITE came in: `+2125ms`.
    static func offset(_ date: Date, from r: CallRecord) -> String {
        let ms = Int((date.timeIntervalSince(r.startedAt) * 1000).rounded())
        return ms < 0 ? "\(ms)ms" : "+\(ms)ms"
    }

    /// `180 +2313ms`, or `-`.
    /// A branch's FINAL column: the status and when; `(sipwake)` when
    /// sipwake made it; `stopped` and when for an INVITE stopped before the
    /// device answered anything (it has no final response).
    private static func final(_ b: CallBranchRecord, _ r: CallRecord) -> String {
        guard b.finalReason != nil else { return response(b.finalStatus, b.endedAt, r) }
        guard b.finalStatus != nil else { return "stopped" + (b.endedAt.map { " " + offset($0, from: r) } ?? "") }
        return response(b.finalStatus, b.endedAt, r) + " (sipwake)"
    }

    private static func response(_ status: Int?, _ at: Date?, _ r: CallRecord) -> String {
        guard let status else { return "-" }
        return at.map { "\(status) \(offset($0, from: r))" } ?? String(status)
    }

    private static func section(_ title: String, _ table: TextTable, count: Int) -> String {
        guard count > 0 else { return "\(title): none" }
        // A last column left empty would leave the padding of the one before.
        let lines = table.render().split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var text = String(line)
            while text.hasSuffix(" ") { text.removeLast() }
            return text
        }
        return ([title] + lines).joined(separator: "\n")
    }

    static func plural(_ count: Int) -> String {
        "\(count) call\(count == 1 ? "" : "s")"
    }
}
