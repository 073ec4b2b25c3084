import Foundation
import Model
import Ports

/// The stored forms of a binding's columns that are not plain values, the
/// same in every adapter: the Path as JSON text, the transport's name, the
/// CSeq as a 64-bit integer.
public enum BindingColumns {
    /// `path` as a JSON array of strings, slashes unescaped; `[]` when empty.
    public static func pathJSON(_ path: [String]) throws -> String {
        guard !path.isEmpty else { return "[]" }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        return String(decoding: try encoder.encode(path), as: UTF8.self)
    }

    /// The stored `transport`, `path` and `cseq` read back.
    /// - Throws: `corruptRow` naming what cannot be read (never a value but the transport's name).
    public static func decode(transport name: String, path text: String, cseq: Int64)
        throws -> (transport: SIPTransport, path: [String], cseq: UInt32)
    {
        guard let transport = SIPTransport(rawValue: name) else {
            throw StorageError.corruptRow(table: "bindings", detail: "unknown transport '\(name)'")
        }
        let path: [String]
        do {
            path = try JSONDecoder().decode([String].self, from: Data(text.utf8))
        } catch {
            throw StorageError.corruptRow(table: "bindings", detail: "path is not a JSON array of strings")
        }
        guard let cseq32 = UInt32(exactly: cseq) else {
            throw StorageError.corruptRow(table: "bindings", detail: "cseq \(cseq) out of range")
        }
        return (transport, path, cseq32)
    }
}
