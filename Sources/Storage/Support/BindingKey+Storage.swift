import Model
import Ports

extension BindingKey {
    /// The stable text form stored in `bindings.binding_key`:
    /// `instance:<urn:uuid:...>;reg-id=1` (`;reg-id=N` only when a reg-id was
    /// sent) or `contact:<normalized Contact URI>`. Never change this format:
    /// rows written by older versions are matched by it.
    public var storageKey: String {
        switch self {
        case .instance(let instanceID, let regID):
            if let regID { return "instance:\(instanceID);reg-id=\(regID)" }
            return "instance:\(instanceID)"
        case .contact(let uri):
            return "contact:\(uri)"
        }
    }
}
