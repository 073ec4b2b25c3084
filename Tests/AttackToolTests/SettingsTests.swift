import SIPAttackSupport
import SIPFlood
import SIPFuzz
import Testing

/// Settings the tools refuse before they send anything, and how their
/// summaries print what they counted.
@Suite struct SettingsTests {
    static let target = try! LoopbackEndpoint(parsing: "127.0.0.1:5060")

    @Test func aNegativeKeepIsRefused() throws {
        #expect(throws: FuzzError.self) { try FuzzConfiguration(target: Self.target, keep: -1) }
        do {
            _ = try FuzzConfiguration(target: Self.target, keep: -1)
        } catch {
            #expect("\(error)".contains("--keep must be 0 or more"), "\(error)")
        }
        #expect(try FuzzConfiguration(target: Self.target, keep: 0).keep == 0)
    }

    @Test func aCampaignRefusesANegativeKeepSetAfterwards() throws {
        var configuration = try FuzzConfiguration(target: Self.target)
        configuration.keep = -5
        #expect(throws: FuzzError.self) { try FuzzCampaign(configuration) }
    }

    @Test func answersPerInviteHaveThreeDecimals() throws {
        var summary = FloodSummary(configuration: try FloodConfiguration(target: Self.target, password: "secret"))
        summary.invitesSent = 199_989
        summary.answers = 1_199
        #expect(summary.report.contains("| amplification | 0.006 answers per INVITE;"), "\(summary.report)")
    }
}
