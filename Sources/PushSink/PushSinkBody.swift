import Foundation

/// Reads a push body: a JSON object whose values become strings (strings as
/// they are, anything else as its JSON text).
enum PushSinkBody {
    static func fields(of data: Data) -> [String: String]? {
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return nil }
        var fields: [String: String] = [:]
        for (key, value) in object {
            if let text = value as? String {
                fields[key] = text
            } else if let json = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys]) {
                fields[key] = String(decoding: json, as: UTF8.self)
            }
        }
        return fields
    }
}
