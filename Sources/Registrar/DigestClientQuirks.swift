/// What sipwake knows of phones that cannot take every challenge RFC 8760
/// lets a server offer at once.
///
/// baresip before 3.0 (its libre answers MD5 only; checked with Debian 12's
/// baresip 1.0) gives up on a 401 or 407 as soon as one of its challenges
/// names an algorithm it lacks ("Register: Function not implemented"),
/// whatever the order. Such a phone is sent only the MD5 challenge, when MD5
/// is enabled; the other phones get every challenge in the configured order.
public enum DigestClientQuirks {
    /// The challenges to send a client whose User-Agent is `userAgent`:
    /// `challenges` in their order, less those the client is known to refuse,
    /// unless that would leave none.
    public static func challenges(_ challenges: [DigestChallenge], userAgent: String?) -> [DigestChallenge] {
        guard let userAgent, answersOnlyMD5(userAgent) else { return challenges }
        let md5 = challenges.filter { $0.algorithm == .md5 }
        return md5.isEmpty ? challenges : md5
    }

    /// True for baresip below version 3: `baresip v1.0.0 (x86_64/linux)`.
    static func answersOnlyMD5(_ userAgent: String) -> Bool {
        let product = "baresip"
        let text = userAgent.lowercased()
        guard text.hasPrefix(product) else { return false }
        var version = text.dropFirst(product.count).drop { $0 == " " || $0 == "/" }
        if version.first == "v" { version = version.dropFirst() }
        guard let major = Int(version.prefix { $0.isASCII && $0.isNumber }) else { return false }
        return major < 3
    }
}
