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
        guard let at = uri.firstIndex(of: "@") else { return uri.lowercased() }
        let userPart = uri[..<at]
        let rest = uri[at...]
        let scheme = userPart.prefix { $0 != ":" }.lowercased()
        let user = userPart.drop { $0 != ":" }
        return scheme + user + rest.lowercased()
    }
}
