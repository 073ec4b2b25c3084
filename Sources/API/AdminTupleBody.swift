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
    /// The push provider; when absent, the one that reaches the tuple's app.
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

    /// `routing`: which provider reaches each app id. The provider, when
    /// given, must be the one that reaches the tuple's app; when absent it is
    /// that one.
    func validated(routing: PushRouting) throws -> Fields {
        guard let username else { throw AdminError.badRequest("missing username", field: "username") }
        guard let selector else { throw AdminError.badRequest("missing selector", field: "selector") }
        var known: DevicePlatform?
        if let platform {
            guard let value = DevicePlatform(rawValue: platform) else {
                throw AdminError.badRequest("invalid platform: use ios, android or null", field: "platform")
            }
            known = value
        }
        if let provider, !DeviceTuple.isValidProvider(provider) {
            throw AdminError.badRequest(
                "invalid provider: use 1 to 32 characters among lowercase letters, digits and '-'", field: "provider")
        }
        // Half pairs and missing pairs are the store's to refuse, by name.
        let calls = tokenCalls == nil ? nil : appIDCalls
        let other = tokenOther == nil ? nil : appIDOther
        if calls == nil && other == nil {
            return Fields(username: username, selector: selector, platform: known,
                          provider: provider ?? DeviceTuple.defaultProvider)
        }
        switch routing.provider(appIDCalls: calls, appIDOther: other, requested: provider) {
        case .success(let chosen):
            return Fields(username: username, selector: selector, platform: known, provider: chosen)
        case .failure(let refusal):
            throw AdminError.badRequest(refusal.reason, field: Self.jsonName(of: refusal.field))
        }
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
