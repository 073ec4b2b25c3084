import Foundation
import Model
import Registrar

/// What one Contact of a REGISTER asks of the RFC 8599 push targets.
enum PNSWork: Sendable, Equatable {
    /// The device becomes (or stays) a push target of the user until `expiresAt`.
    case store(selector: String, device: PNSDevice, push: SIPPushParameters, expiresAt: Date)
    /// The device unregistered: it is no push target any more.
    case remove(selector: String)
    /// The Contact names a supported service but no device (`pn-provider`
    /// alone, or no VoIP token): an ordinary binding, told that `pns` is supported.
    case query(pns: String)
}

extension PNSWork {
    /// The selector this work stores or removes, nil for a query.
    var selector: String? {
        switch self {
        case .store(let selector, _, _, _), .remove(let selector): return selector
        case .query: return nil
        }
    }
}
