import Foundation
import Model

/// One device tuple of the callee, as a push destination: the incoming-call
/// token pair wakes the app, the other pair carries missed and
/// answered-elsewhere notifications. A tuple reported with one pair has it
/// in both.
public struct PushTarget: Sendable, Equatable {
    public var tupleID: Int64
    public var selector: String
    public var callsAppID: String?
    public var callsToken: String?
    public var otherAppID: String?
    public var otherToken: String?

    public init(tupleID: Int64, selector: String, callsAppID: String?, callsToken: String?,
                otherAppID: String?, otherToken: String?) {
        self.tupleID = tupleID
        self.selector = selector
        self.callsAppID = callsAppID
        self.callsToken = callsToken
        self.otherAppID = otherAppID
        self.otherToken = otherToken
    }

    /// Whether a push of `kind` can be addressed to this device.
    public func canReceive(_ kind: PushKind) -> Bool {
        switch kind {
        case .incomingCall: return (callsToken ?? otherToken) != nil && (callsAppID ?? otherAppID) != nil
        case .missed, .answeredElsewhere: return (otherToken ?? callsToken) != nil && (otherAppID ?? callsAppID) != nil
        }
    }

    /// Whether `token` is one of this device's push tokens.
    public func hasToken(_ token: String) -> Bool {
        token == callsToken || token == otherToken
    }
}

extension PushTarget {
    /// Whether `binding` is this device: its Contact carries one of this
    /// tuple's tokens as `pn-prid` or `pn-tok` (RFC 8599 push parameters).
    public func isDevice(of binding: Binding) -> Bool {
        for parameter in binding.contact.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            let name = pair[0].trimmingCharacters(in: .whitespaces).lowercased()
            guard name == "pn-prid" || name == "pn-tok" else { continue }
            let value = String(pair[1]).trimmingCharacters(in: CharacterSet(charactersIn: " >\""))
            if hasToken(value) { return true }
        }
        return false
    }
}
