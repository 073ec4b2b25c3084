// binding-memory: heap bytes per binding held by the registrar's location
// table, and database bytes per binding. Not a test: a measurement.
//
//   swift run -c release binding-memory [COUNT]
//
// It fills a LocationTable with COUNT realistic bindings (a phone's contact
// URI, +sip.instance, Call-ID, User-Agent, the NAT source) and reports the
// growth of the process's resident memory divided by COUNT; then writes the
// same bindings to a fresh SQLite file and reports file bytes per binding.
import Foundation
import Glibc
import Registrar
import SQLiteStorage
import Logging
import Model

let count = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 100_000 : 100_000
let now = Date()

/// Resident set size from /proc/self/statm, in bytes.
func residentBytes() -> Int {
    let text = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
    let pages = Int(text.split(separator: " ").dropFirst().first ?? "0") ?? 0
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

func makeBinding(_ i: Int) -> Binding {
    Binding(
        aor: "user\(i)",
        contact: "sip:user\(i)@192.168.\(i % 250).\(i % 200 + 10):5060;transport=tcp",
        instanceID: "<urn:uuid:\(UUID().uuidString.lowercased())>", regID: 1,
        callID: UUID().uuidString, cseq: UInt32(i % 1000 + 1), q: nil,
        expiresAt: now.addingTimeInterval(3600), path: [],
        source: BindingSource(transport: .tcp, host: "203.0.113.\(i % 250)", port: 30000 + i % 30000,
                              connectionID: UInt64(i)),
        userAgent: "Acrobits Softphone 6.7", registeredAt: now, updatedAt: now)
}

// Bindings are made inside the measured span so their strings are counted.
let before = residentBytes()
var table = LocationTable()
for i in 0..<count {
    table.apply([.added(makeBinding(i))])
}
let after = residentBytes()
let bindings = table.allBindings()
precondition(table.count == count)
let perBinding = Double(after - before) / Double(count)
print("bindings                \(count)")
print("location table RSS      \(after - before) bytes (\(String(format: "%.0f", perBinding)) bytes per binding)")

let dir = FileManager.default.temporaryDirectory.appendingPathComponent("binding-memory-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: dir) }
let path = dir.appendingPathComponent("b.sqlite").path
let database = try SipwakeDatabase(path: path)
let store = BindingStore(database: database)
for chunk in stride(from: 0, to: count, by: 5000) {
    try store.apply(bindings[chunk..<min(chunk + 5000, count)].map { .added($0) })
}
try database.close()
let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
print("database file           \(size) bytes (\(size / count) bytes per binding)")
withExtendedLifetime(table) {}
