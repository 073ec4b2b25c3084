/// The keys whose values differ between two configurations, named as in
/// sipwake.toml (`sip.listen`, `push.gateway_url`, `apps.NAME`): what a
/// reload reports as applied or as needing a restart. Values are compared,
/// never printed, so secrets stay out of the report.
public enum ConfigChanges {
    /// Sorted; `apps.NAME` for an app added, removed or changed, and
    /// `webhook.domains` for any change among the per-domain webhooks.
    public static func keys(from old: SipwakeConfig, to new: SipwakeConfig) -> [String] {
        var changed: [String] = []
        let oldSections = Mirror(reflecting: old).children
        let newSections = Mirror(reflecting: new).children
        for (oldSection, newSection) in zip(oldSections, newSections) {
            guard let section = oldSection.label else { continue }
            if section == "apps" {
                changed += appChanges(old.apps, new.apps)
                continue
            }
            for (oldKey, newKey) in zip(Mirror(reflecting: oldSection.value).children,
                                        Mirror(reflecting: newSection.value).children) {
                guard let name = oldKey.label else { continue }
                if !same(oldKey.value, newKey.value) {
                    changed.append("\(snakeCase(section)).\(snakeCase(name))")
                }
            }
        }
        return changed.sorted()
    }

    private static func appChanges(_ old: [AppSection], _ new: [AppSection]) -> [String] {
        let before = Dictionary(old.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let after = Dictionary(new.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        return Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.map { "apps.\($0)" }
    }

    private static func same(_ a: Any, _ b: Any) -> Bool {
        if let a = a as? AnyHashable, let b = b as? AnyHashable { return a == b }
        // Every configuration value is Hashable; anything else counts as changed.
        return false
    }

    /// `gatewayURL` → `gateway_url`, `maxBodySize` → `max_body_size`.
    static func snakeCase(_ name: String) -> String {
        let characters = Array(name)
        var out = ""
        for (index, character) in characters.enumerated() {
            if character.isUppercase, index > 0 {
                let previous = characters[index - 1]
                let nextIsLower = index + 1 < characters.count && characters[index + 1].isLowercase
                if previous.isLowercase || previous.isNumber || (previous.isUppercase && nextIsLower) {
                    out.append("_")
                }
            }
            out += character.lowercased()
        }
        return out
    }
}
