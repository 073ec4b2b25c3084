/// The names `[apps.NAME]` accepts: 1 to 32 lowercase ASCII letters,
/// digits, `-` and `_`, so they read well in logs and metrics.
enum AppNameSyntax {
    static func isValid(_ name: String) -> Bool {
        (1...32).contains(name.utf8.count)
            && name.utf8.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == 45 || $0 == 95 }
    }
}
