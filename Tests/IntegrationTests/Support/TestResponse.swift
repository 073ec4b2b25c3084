import SIPCore

/// A final response the test UA received, copied out of Sofia.
struct TestResponse: Sendable {
    var status: Int
    var contacts: [SIPContact]
    var challenges: [[String: String]]
    var minExpires: Int?
    var text: String

    /// Value of a header line in the raw response (first match, case-insensitive name).
    func header(_ name: String) -> String? {
        headers(name).first
    }

    func headers(_ name: String) -> [String] {
        text.split(separator: "\r\n").compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            guard line[..<colon].trimmingCharacters(in: .whitespaces).lowercased() == name.lowercased() else { return nil }
            return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
    }
}

import Foundation
