/// One `[webhook.domains."NAME"]` table as read from the file: its keys'
/// values (types already checked against ``ConfigSchema/webhookDomainKeys``)
/// and their lines.
struct RawWebhookDomain: Sendable {
    let name: String
    let line: Int?
    var values: [String: ConfigValue] = [:]
    var lines: [String: Int] = [:]
}
