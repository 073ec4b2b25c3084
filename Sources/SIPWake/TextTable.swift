/// A plain text table for the CLI's human output: a header row, then one row
/// per record, columns padded to their widest cell.
public struct TextTable {
    public var headers: [String]
    public var rows: [[String]] = []

    public init(headers: [String]) {
        self.headers = headers
    }

    public mutating func append(_ row: [String]) {
        rows.append(row)
    }

    public func render() -> String {
        var widths = headers.map(\.count)
        for row in rows {
            for (i, cell) in row.enumerated() where i < widths.count {
                widths[i] = max(widths[i], cell.count)
            }
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, cell in
                i == cells.count - 1 ? cell : cell.padding(toLength: widths[i], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }
        return ([line(headers)] + rows.map(line)).joined(separator: "\n")
    }
}

import Foundation
