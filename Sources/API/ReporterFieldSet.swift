/// The name/value pairs of one reporter request, looked up by the several
/// spellings of a field. Empty values count as absent. A field given more
/// than once (under one spelling or several) must have one value.
struct ReporterFieldSet: Sendable {
    private let values: [String: [String]]

    init(_ pairs: [(name: String, value: String)]) {
        var values: [String: [String]] = [:]
        for pair in pairs where !pair.value.isEmpty {
            values[pair.name, default: []].append(pair.value)
        }
        self.values = values
    }

    /// The spelling the client used among `names`, else the first one:
    /// error answers name the field as the client sent it.
    func spelling(_ names: [String]) -> String {
        names.first { values[$0] != nil } ?? names[0]
    }

    /// The value of the field spelled any of `names`; nil when absent.
    /// - Throws: `APIError` 400 when given twice with different values, over
    ///   `length` characters, or with a control character.
    func value(_ names: [String], length: ClosedRange<Int>) throws -> String? {
        let given = names.flatMap { values[$0] ?? [] }
        guard let first = given.first else { return nil }
        let name = spelling(names)
        guard given.allSatisfy({ $0 == first }) else {
            throw APIError(.badRequest, "\(name) is given more than once with different values", field: name)
        }
        guard first.count <= length.upperBound else {
            throw APIError(.badRequest, "\(name) is longer than \(length.upperBound) characters", field: name)
        }
        guard !first.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw APIError(.badRequest, "\(name) contains a control character", field: name)
        }
        return first
    }
}
