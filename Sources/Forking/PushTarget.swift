import Foundation
import Model

/// One device tuple of the callee, as a push destination: the incoming-call
/// token pair wakes the app, the other pair carries missed and
/// answered-elsewhere notifications and binding-refresh pushes. A tuple
/// reported with one pair has it in both.
///
/// Or the customer's backend (``webhook(account:)``): one per call when the
/// callee's domain has a webhook, reached like a device but with no tuple
/// behind it. Its "token gone" answer (404) means the backend knows no device
/// of the user: the call stops waiting for it, and nothing is deleted.
public struct PushTarget: Sendable, Equatable {
    public var tupleID: Int64
    /// The push provider that reaches this device (`acrobits`).
    public var provider: String
    public var selector: String
    public var callsAppID: String?
    public var callsToken: String?
    public var otherAppID: String?
    public var otherToken: String?
    /// The end-of-call events the app of this device's other pair does not
    /// want (`[apps.NAME]` `missed_notification` or
    /// `answered_elsewhere_notification` = false): no push of these is made.
    public var switchedOff: Set<PushEvent>
    /// The device's platform as its app reported it, nil when unknown (an
    /// RFC 8599 phone): for the wake-time metrics.
    public var platform: DevicePlatform?

    public init(tupleID: Int64, provider: String = "acrobits", selector: String, callsAppID: String?,
                callsToken: String?, otherAppID: String?, otherToken: String?, switchedOff: Set<PushEvent> = [],
                platform: DevicePlatform? = nil) {
        self.tupleID = tupleID
        self.platform = platform
        self.provider = provider
        self.selector = selector
        self.callsAppID = callsAppID
        self.callsToken = callsToken
        self.otherAppID = otherAppID
        self.otherToken = otherToken
        self.switchedOff = switchedOff
    }

    /// Whether a push of `event` is made for this device: it can be
    /// addressed, and its app has not switched that kind off.
    public func canReceive(_ event: PushEvent) -> Bool {
        !isSwitchedOff(event) && address(for: event) != nil
    }

    /// Whether `event` would reach this device but its app switched that kind off.
    public func isSwitchedOff(_ event: PushEvent) -> Bool {
        switchedOff.contains(event) && address(for: event) != nil
    }

    /// This device with the events its pushes' apps switched off:
    /// `switchedOff(appID)` is the set of end-of-call events the app `appID`
    /// does not want (an incoming call is never switched off).
    public func withSwitches(_ switchedOff: (String) -> Set<PushEvent>) -> PushTarget {
        var target = self
        target.switchedOff = []
        for event in PushEvent.allCases where !event.usesCallsPair {
            guard let address = address(for: event), switchedOff(address.appID).contains(event) else { continue }
            target.switchedOff.insert(event)
        }
        return target
    }

    /// The app and token a push of `event` goes to: the pair meant for it,
    /// else the tuple's only pair; nil when the tuple has neither. An APNs
    /// device's calls token is a VoIP token, which Apple allows for calls
    /// that really ring only: without an other pair (an alert token), that
    /// device gets no missed, answered-elsewhere or binding-refresh push.
    public func address(for event: PushEvent) -> (appID: String, token: String)? {
        if !event.usesCallsPair, provider == Self.apnsProvider, otherToken == nil || otherToken == callsToken {
            return nil
        }
        let appID = event.usesCallsPair ? (callsAppID ?? otherAppID) : (otherAppID ?? callsAppID)
        let token = event.usesCallsPair ? (callsToken ?? otherToken) : (otherToken ?? callsToken)
        guard let appID, let token else { return nil }
        return (appID, token)
    }

    /// The provider name of devices reached through Apple's APNs directly.
    public static let apnsProvider = "apns"

    /// The tuple id of the webhook target: no stored tuple has it (ids start at 1).
    public static let webhookTupleID: Int64 = 0

    /// The customer's backend for a call to a user of `account` (the called
    /// domain, whose webhook it is): every event of a call reaches it, and its
    /// "token" is the account, which names the endpoint to post to.
    public static func webhook(account: String) -> PushTarget {
        PushTarget(tupleID: webhookTupleID, provider: CallWebhookType.providerName, selector: "webhook",
                   callsAppID: CallWebhookType.providerName, callsToken: account,
                   otherAppID: CallWebhookType.providerName, otherToken: account)
    }

    /// Whether this is the customer's backend rather than a device.
    public var isWebhook: Bool { provider == CallWebhookType.providerName }

    /// Whether `token` is one of this device's push tokens.
    public func hasToken(_ token: String) -> Bool {
        token == callsToken || token == otherToken
    }
}

extension PushTarget {
    /// Whether `binding` is this device, as far as the binding tells:
    /// - its `+sip.instance` is this tuple's selector, as its RFC 8599
    ///   REGISTER made it (`rfc8599:USER:<instance>`) or as its app reported
    ///   it (``selector(_:namesInstance:)``);
    /// - the push token its Contact names (`contactToken`: `pn-prid` or
    ///   `pn-tok` as the SIP layer read it, %-escapes undone) is one of this
    ///   tuple's tokens, whole or as a part of Linphone's
    ///   `VOIP:voip&ALERT:remote`, or makes this tuple's selector
    ///   (`rfc8599:USER:pn-prid:TOKEN`: a phone that registered without an
    ///   instance id).
    public func isDevice(of binding: Binding, contactToken: String?) -> Bool {
        // The backend is no device: a binding never carries its account as a token.
        guard !isWebhook else { return false }
        if let instance = binding.instanceID, !instance.isEmpty {
            if selector == SIPPushParameters.deviceSelector(aor: binding.aor, instanceID: instance, prid: nil)
                || Self.selector(selector, namesInstance: instance) {
                return true
            }
        }
        guard let token = contactToken, !token.isEmpty else { return false }
        if hasToken(token) || selector == SIPPushParameters.deviceSelector(aor: binding.aor, instanceID: nil, prid: token) {
            return true
        }
        return token.split(separator: "&").contains { part in
            let piece = part.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
            return !piece.isEmpty && hasToken(piece)
        }
    }

    /// Whether an app reported its `+sip.instance` (`<urn:uuid:…>`) as the
    /// selector: the URN with or without its angle brackets, or the bare
    /// UUID of a `urn:uuid:`, in any case (RFC 4122 UUIDs and URN prefixes
    /// are case-insensitive).
    public static func selector(_ selector: String, namesInstance instance: String) -> Bool {
        let brackets = CharacterSet(charactersIn: "<>")
        let urn = instance.trimmingCharacters(in: brackets).lowercased()
        let reported = selector.trimmingCharacters(in: brackets).lowercased()
        guard !urn.isEmpty else { return false }
        if reported == urn { return true }
        let uuidPrefix = "urn:uuid:"
        return urn.hasPrefix(uuidPrefix) && reported == urn.dropFirst(uuidPrefix.count)
    }
}
