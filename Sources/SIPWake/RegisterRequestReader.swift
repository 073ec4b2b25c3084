import Model
import Registrar
import SIPCore

/// Turns a REGISTER that Sofia has parsed into the registrar rules' input,
/// or into the 400 response that explains what is wrong with it.
enum RegisterRequestReader {
    struct Rejection: Error, Equatable {
        var status: Int
        var phrase: String
    }

    static func read(_ message: SIPMessage, aor: String, source: BindingSource) -> Result<RegisterRequest, Rejection> {
        guard let callID = message.callID, let cseq = message.cseq else {
            return .failure(Rejection(status: 400, phrase: "Missing Call-ID or CSeq"))
        }
        let contacts = message.contacts
        let isWildcard = contacts.contains { $0.isWildcard }
        var specs: [ContactSpec] = []
        for contact in contacts where !contact.isWildcard {
            guard let uri = contact.uri else { continue }
            var spec = ContactSpec(uri: uri.description, push: uri.pushParameters)
            if let expires = contact.expires {
                guard let value = Int(expires), value >= 0 else {
                    return .failure(Rejection(status: 400, phrase: "Bad Contact expires"))
                }
                spec.expires = value
            }
            if let q = contact.q {
                guard let value = parseQ(q) else {
                    return .failure(Rejection(status: 400, phrase: "Bad Contact q-value"))
                }
                spec.q = value
            }
            if let instance = contact.instanceID, !instance.isEmpty {
                spec.instanceID = instance
            }
            if let regID = contact.regID {
                guard let value = Int(regID), value > 0 else {
                    return .failure(Rejection(status: 400, phrase: "Bad Contact reg-id"))
                }
                spec.regID = value
            }
            specs.append(spec)
        }
        return .success(RegisterRequest(
            aor: aor, callID: callID, cseq: cseq, expiresHeader: message.expires,
            contacts: specs, isWildcard: isWildcard, path: message.path,
            source: source,
            userAgent: message.userAgent))
    }

    /// RFC 3261 §25.1 `qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )`,
    /// in thousandths.
    static func parseQ(_ text: String) -> Int? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, let whole = parts.first, whole == "0" || whole == "1" else { return nil }
        var fraction = parts.count == 2 ? String(parts[1]) : ""
        guard fraction.count <= 3, fraction.allSatisfy(\.isASCII), fraction.allSatisfy(\.isNumber) else { return nil }
        if parts.count == 2 && fraction.isEmpty { return nil }
        while fraction.count < 3 { fraction += "0" }
        let value = (whole == "1" ? 1000 : 0) + Int(fraction)!
        return value <= 1000 ? value : nil
    }
}
