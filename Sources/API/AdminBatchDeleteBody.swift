/// The body of `POST /admin/v1/tuples/batch-delete`: `{"ids": [1, 2, 3]}`.
struct AdminBatchDeleteBody: Decodable, Sendable {
    var ids: [Int64]

    static let maxIDs = 1000

    func validated() throws -> [Int64] {
        guard (1...Self.maxIDs).contains(ids.count) else {
            throw AdminError.badRequest("ids must hold 1 to \(Self.maxIDs) tuple ids (\(ids.count) given)", field: "ids")
        }
        guard ids.allSatisfy({ $0 > 0 }) else {
            throw AdminError.badRequest("ids must be positive integers", field: "ids")
        }
        return ids
    }
}
