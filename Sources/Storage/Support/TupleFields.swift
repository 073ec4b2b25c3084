import Model
import Ports
/// The writable fields of a device tuple, validated and normalized: what
/// each adapter's tuple store writes. Built only by `validate`, so a value of this type has
/// passed every check before a transaction starts.
public struct TupleFields: Sendable {
    public let username: String
    public let selector: String
    public let appIDCalls: String?
    public let tokenCalls: String?
    public let appIDOther: String?
    public let tokenOther: String?
    public let platform: DevicePlatform?
    /// nil: keep the stored provider (a report), or the column default for a new row.
    public let provider: String?

    /// The tokens of this tuple (one or two, possibly equal: FCM reports the
    /// same token in both pairs).
    public var tokens: [String] {
        [tokenCalls, tokenOther].compactMap { $0 }
    }

    public static let selectorLength = 1...256
    static let appIDLength = 1...256
    static let tokenLength = 1...4096

    /// - Throws: `invalidUsername`, or `invalidField` naming the first bad field.
    public static func validate(
        username: String, selector: String,
        appIDCalls: String?, tokenCalls: String?, appIDOther: String?, tokenOther: String?,
        platform: DevicePlatform?, provider: String? = nil
    ) throws -> TupleFields {
        let name = try UserFields.normalizedUsername(username)
        try check(selector, name: "selector", length: selectorLength)
        try checkPair(appID: appIDCalls, token: tokenCalls, appIDName: "appIDCalls", tokenName: "tokenCalls")
        try checkPair(appID: appIDOther, token: tokenOther, appIDName: "appIDOther", tokenName: "tokenOther")
        guard tokenCalls != nil || tokenOther != nil else {
            throw StorageError.invalidField(
                name: "tokenCalls", reason: "a tuple needs at least one complete pair: appIDCalls + tokenCalls or appIDOther + tokenOther")
        }
        if let provider, !DeviceTuple.isValidProvider(provider) {
            throw StorageError.invalidField(
                name: "provider", reason: "use 1 to 32 characters among lowercase letters, digits and '-'")
        }
        return TupleFields(
            username: name, selector: selector, appIDCalls: appIDCalls, tokenCalls: tokenCalls,
            appIDOther: appIDOther, tokenOther: tokenOther, platform: platform, provider: provider)
    }

    private static func checkPair(appID: String?, token: String?, appIDName: String, tokenName: String) throws {
        switch (appID, token) {
        case (nil, nil):
            return
        case (let appID?, let token?):
            try check(appID, name: appIDName, length: appIDLength)
            try check(token, name: tokenName, length: tokenLength)
        case (nil, _?):
            throw StorageError.invalidField(name: appIDName, reason: "missing: \(tokenName) is given, and a pair is an app id and a token together")
        case (_?, nil):
            throw StorageError.invalidField(name: tokenName, reason: "missing: \(appIDName) is given, and a pair is an app id and a token together")
        }
    }

    /// Length in characters and no control characters. The reason never
    /// contains the value.
    public static func check(_ value: String, name: String, length: ClosedRange<Int>) throws {
        let count = value.count
        guard count >= length.lowerBound else {
            throw StorageError.invalidField(name: name, reason: "must not be empty")
        }
        guard count <= length.upperBound else {
            throw StorageError.invalidField(name: name, reason: "longer than \(length.upperBound) characters (\(count))")
        }
        guard !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw StorageError.invalidField(name: name, reason: "contains a control character")
        }
    }
}
