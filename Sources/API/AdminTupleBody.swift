import Model

/// The body of `POST /admin/v1/tuples` and `PUT /admin/v1/tuples/{id}`.
/// Every field is optional here so that a missing one is refused by name by
/// `validated()`, before the tuple repository is called.
struct AdminTupleBody: Decodable, Sendable {
    var username: String?
    var selector: String?
    var appIDCalls: String?
    var tokenCalls: String?
    var appIDOther: String?
    var tokenOther: String?
    var platform: String?
    /// The push provider; `acrobits` when absent.
    var provider: String?

    enum CodingKeys: String, CodingKey {
        case username, selector, platform, provider
        case appIDCalls = "app_id_calls"
        case tokenCalls = "token_calls"
        case appIDOther = "app_id_other"
        case tokenOther = "token_other"
    }

    /// The fields the store needs; the repository checks lengths, characters and pairs.
    struct Fields: Sendable {
        let username: String
        let selector: String
        let platform: DevicePlatform?
        let provider: String
    }

    /// `providers`: the names this server pushes through.
    func validated(providers: [String]) throws -> Fields {
        guard let username else { throw AdminError.badRequest("missing username", field: "username") }
        guard let selector else { throw AdminError.badRequest("missing selector", field: "selector") }
        var known: DevicePlatform?
        if let platform {
            guard let value = DevicePlatform(rawValue: platform) else {
                throw AdminError.badRequest("invalid platform: use ios, android or null", field: "platform")
            }
            known = value
        }
        let provider = self.provider ?? DeviceTuple.defaultProvider
        guard DeviceTuple.isValidProvider(provider) else {
            throw AdminError.badRequest(
                "invalid provider: use 1 to 32 characters among lowercase letters, digits and '-'", field: "provider")
        }
        guard providers.contains(provider) else {
            throw AdminError.badRequest(
                "unknown provider: this server pushes through \(providers.joined(separator: ", "))", field: "provider")
        }
        return Fields(username: username, selector: selector, platform: known, provider: provider)
    }

    /// The JSON name of a `StorageError.invalidField` name.
    static func jsonName(of storageField: String) -> String {
        switch storageField {
        case "appIDCalls": return CodingKeys.appIDCalls.rawValue
        case "tokenCalls": return CodingKeys.tokenCalls.rawValue
        case "appIDOther": return CodingKeys.appIDOther.rawValue
        case "tokenOther": return CodingKeys.tokenOther.rawValue
        default: return storageField
        }
    }
}
