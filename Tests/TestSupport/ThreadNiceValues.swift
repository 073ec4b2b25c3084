import Foundation

/// The nice value of each of this process's threads that bears `name`
/// (`/proc/self/task/*/stat`, field 19), to check a thread's priority.
public func threadNiceValues(named name: String) -> [Int] {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    return tasks.compactMap { task in
        guard let comm = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8),
              comm.trimmingCharacters(in: .newlines) == name,
              let stat = try? String(contentsOfFile: "/proc/self/task/\(task)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        // After "pid (comm)" the state is field 3: nice (19) is the 17th from there.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 16 ? Int(fields[16]) : nil
    }
}
