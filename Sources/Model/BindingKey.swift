/// The identity of a binding within its AOR.
///
/// RFC 5626 §6: a contact with `+sip.instance` is the same device whatever its
/// URI (a phone that moves from Wi-Fi to LTE gets a new address but keeps its
/// instance id), so it replaces its own binding instead of piling up duplicates.
/// Without an instance id, RFC 3261 §10.3 matches bindings by Contact URI.
public enum BindingKey: Sendable, Hashable {
    case instance(String, regID: Int?)
    case contact(String)

    public init(instanceID: String?, regID: Int?, contact: String) {
        if let instanceID, !instanceID.isEmpty {
            self = .instance(instanceID, regID: regID)
        } else {
            self = .contact(BindingKey.normalize(contact))
        }
    }

    /// A cheap approximation of RFC 3261 §19.1.4 URI equality good enough for
    /// matching a device's own re-registrations: scheme and host are compared
    /// case-insensitively, the user part as sent.
    static func normalize(_ uri: String) -> String {
        // SIP URIs are ASCII (RFC 3261 §19.1.1 escapes anything else), so an
        // ASCII byte pass is exact and far cheaper than Unicode lowercasing;
        // it runs every time a binding's key is computed.
        var bytes = Array(uri.utf8)
        func lower(_ range: Range<Int>) {
            for i in range where bytes[i] >= UInt8(ascii: "A") && bytes[i] <= UInt8(ascii: "Z") {
                bytes[i] += 32
            }
        }
        if let at = bytes.firstIndex(of: UInt8(ascii: "@")) {
            let schemeEnd = bytes[..<at].firstIndex(of: UInt8(ascii: ":")) ?? at
            lower(0..<schemeEnd)
            lower(at..<bytes.count)
        } else {
            lower(0..<bytes.count)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
