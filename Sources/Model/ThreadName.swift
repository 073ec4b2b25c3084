import Foundation

/// The operating system's name of the calling thread (what `top -H`, `ps -L`
/// and debuggers show), read and written through `/proc/thread-self/comm`.
///
/// Foundation's `Thread.current.name` is not used for this: on Linux it can
/// answer with the name of a dispatch worker (`…oot.default-qos`) instead of
/// the name the thread gave itself, so a dedicated thread (`push-http`, the
/// database writer) could not be told apart reliably. Swift does not see
/// glibc's `pthread_setname_np`, and the kernel file is the same interface.
/// The kernel keeps at most 15 bytes of a name; longer names are cut.
public enum ThreadName {
    private static let path = "/proc/thread-self/comm"

    /// Names the calling thread; a system without the file keeps the old name.
    public static func set(_ name: String) {
        let cut = Data(name.utf8.prefix(15))
        guard let file = FileHandle(forWritingAtPath: path) else { return }
        defer { try? file.close() }
        try? file.write(contentsOf: cut)
    }

    /// The calling thread's name, nil when it cannot be read.
    public static var current: String? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let name = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines)
        return name.isEmpty ? nil : name
    }
}
