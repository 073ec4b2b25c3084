import Model

/// The fields of a Push Token Reporter or Account Removal Reporter call, read
/// from the name/value pairs of the query string and body, with every
/// spelling the softphone templates use, and checked before anything is
/// stored. Empty values count as absent: an app substitutes an empty string
/// for a template variable it has no value for.
struct ReporterRequest: Sendable, Equatable {
    /// The account named in the request (`username` / `account[username]`), as sent.
    var username: String?
    /// `password` / `account[password]`. Never logged.
    var password: String?
    var selector: String
    var appIDCalls: String?
    var tokenCalls: String?
    var appIDOther: String?
    var tokenOther: String?
    var platform: DevicePlatform?
    /// The provider the app says its tokens belong to (`provider`): optional,
    /// and when sent it must be the one that reaches the reported app.
    var provider: String?

    static let usernameNames = ["username", "account[username]"]
    static let passwordNames = ["password", "account[password]"]
    static let selectorNames = ["selector"]
    static let platformNames = ["platform"]
    static let providerNames = ["provider"]
    static let singleTokenNames = ["pushToken", "token"]
    static let singleAppIDNames = ["pushappid", "appId", "appid"]
    static let callsTokenNames = ["pushTokenIncomingCall", "token_calls"]
    static let callsAppIDNames = ["pushappid_incoming_call", "appId_calls"]
    static let otherTokenNames = ["pushTokenOther", "token_msgs"]
    static let otherAppIDNames = ["pushappid_other", "appId_msgs"]

    static let selectorLength = 1...256
    static let appIDLength = 1...256
    static let tokenLength = 1...4096
    static let passwordLength = 1...256

    /// Reads a report: selector and at least one whole pair required. One pair
    /// (`pushToken` + `pushappid`) is stored as both pairs; when a two-pair
    /// field is given, the two pairs are used and the one-pair fields ignored.
    /// - Throws: `APIError` 400 naming the field (as the client spelled it).
    static func report(_ pairs: [(name: String, value: String)]) throws -> ReporterRequest {
        let fields = ReporterFieldSet(pairs)
        var request = try common(fields)
        let calls = try pair(fields, appIDNames: callsAppIDNames, tokenNames: callsTokenNames)
        let other = try pair(fields, appIDNames: otherAppIDNames, tokenNames: otherTokenNames)
        let single = try pair(fields, appIDNames: singleAppIDNames, tokenNames: singleTokenNames)
        if calls != nil || other != nil {
            request.appIDCalls = calls?.appID
            request.tokenCalls = calls?.token
            request.appIDOther = other?.appID
            request.tokenOther = other?.token
        } else if let single {
            request.appIDCalls = single.appID
            request.tokenCalls = single.token
            request.appIDOther = single.appID
            request.tokenOther = single.token
        } else {
            throw APIError(.badRequest,
                           "missing push token: send pushTokenIncomingCall + pushappid_incoming_call and/or pushTokenOther + pushappid_other, or pushToken + pushappid",
                           field: "pushToken")
        }
        if let raw = try fields.value(platformNames, length: 1...16) {
            guard let platform = DevicePlatform(rawValue: raw.lowercased()) else {
                throw APIError(.badRequest, "platform must be ios or android", field: "platform")
            }
            request.platform = platform
        }
        if let provider = try fields.value(providerNames, length: 1...32) {
            guard DeviceTuple.isValidProvider(provider) else {
                throw APIError(.badRequest, "provider must be lowercase letters, digits and '-' (acrobits, apns, fcm)",
                               field: "provider")
            }
            request.provider = provider
        }
        return request
    }

    /// Reads a removal: selector required; tokens, if sent, are ignored.
    static func removal(_ pairs: [(name: String, value: String)]) throws -> ReporterRequest {
        try common(ReporterFieldSet(pairs))
    }

    private static func common(_ fields: ReporterFieldSet) throws -> ReporterRequest {
        let username = try fields.value(usernameNames, length: 1...64)
        if let username, !SIPUsername.isValid(username) {
            throw APIError(.badRequest, "username is not a valid SIP user name", field: fields.spelling(usernameNames))
        }
        let password = try fields.value(passwordNames, length: passwordLength)
        if password != nil, username == nil {
            throw APIError(.badRequest, "a password needs the username it belongs to", field: "username")
        }
        guard let selector = try fields.value(selectorNames, length: selectorLength) else {
            throw APIError(.badRequest, "missing selector", field: "selector")
        }
        return ReporterRequest(username: username, password: password, selector: selector)
    }

    private static func pair(_ fields: ReporterFieldSet, appIDNames: [String], tokenNames: [String]) throws -> (appID: String, token: String)? {
        let appID = try fields.value(appIDNames, length: appIDLength)
        let token = try fields.value(tokenNames, length: tokenLength)
        switch (appID, token) {
        case (nil, nil):
            return nil
        case (let appID?, let token?):
            return (appID, token)
        case (nil, _?):
            // The missing half is named in the spelling family of the given one.
            let given = fields.spelling(tokenNames)
            let missing = appIDNames[min(tokenNames.firstIndex(of: given) ?? 0, appIDNames.count - 1)]
            throw APIError(.badRequest, "half a pair: \(given) needs its app id \(missing)", field: missing)
        case (_?, nil):
            let given = fields.spelling(appIDNames)
            let missing = tokenNames[min(appIDNames.firstIndex(of: given) ?? 0, tokenNames.count - 1)]
            throw APIError(.badRequest, "half a pair: \(given) needs its token \(missing)", field: missing)
        }
    }

    private init(username: String?, password: String?, selector: String) {
        self.username = username
        self.password = password
        self.selector = selector
    }
}
