import Foundation
import Model

extension SIPURI {
    /// The RFC 8599 push parameters of this URI (a REGISTER's Contact), nil
    /// when it has no `pn-provider`. Values are read by Sofia and their
    /// %-escapes undone (a token may escape characters a URI parameter cannot hold).
    public var pushParameters: SIPPushParameters? {
        guard let provider = parameter("pn-provider") else { return nil }
        return SIPPushParameters(provider: unescapedParameter("pn-provider") ?? provider,
                                 prid: unescapedParameter("pn-prid"), param: unescapedParameter("pn-param"),
                                 purr: unescapedParameter("pn-purr"))
    }

    /// The push token this URI (a device's Contact) names the device by,
    /// %-escapes undone: RFC 8599's `pn-prid`, else the `pn-tok` of the
    /// drafts before it; nil without either (or when empty). Unlike
    /// `pushParameters` it needs no `pn-provider`: it tells which device
    /// tuple a binding is, not how to push it.
    public var pushDeviceToken: String? {
        (unescapedParameter("pn-prid") ?? unescapedParameter("pn-tok")).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// A parameter's value as Sofia reads it, with its %-escapes undone (a
    /// token may escape characters a URI parameter cannot hold).
    private func unescapedParameter(_ name: String) -> String? {
        parameter(name).map { $0.removingPercentEncoding ?? $0 }
    }
}
