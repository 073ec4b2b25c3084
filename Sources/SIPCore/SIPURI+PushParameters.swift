import Foundation
import Model

extension SIPURI {
    /// The RFC 8599 push parameters of this URI (a REGISTER's Contact), nil
    /// when it has no `pn-provider`. Values are read by Sofia and their
    /// %-escapes undone (a token may escape characters a URI parameter cannot hold).
    public var pushParameters: SIPPushParameters? {
        guard let provider = parameter("pn-provider") else { return nil }
        func value(_ name: String) -> String? {
            parameter(name).map { $0.removingPercentEncoding ?? $0 }
        }
        return SIPPushParameters(provider: value("pn-provider") ?? provider, prid: value("pn-prid"),
                                 param: value("pn-param"), purr: value("pn-purr"))
    }
}
