import Foundation

/// A self-signed certificate and key for `tls:` listeners, made with openssl
/// in a fresh temporary directory.
struct TestCertificate {
    let directory: URL
    let certificate: String
    let key: String

    static var opensslInstalled: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl") }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        key = directory.appendingPathComponent("key.pem").path
        certificate = directory.appendingPathComponent("cert.pem").path
        let made = try SipwakeProcess.run("/usr/bin/openssl", [
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate,
            "-days", "2", "-subj", "/CN=localhost",
        ])
        guard made.status == 0 else {
            throw NSError(domain: "TestCertificate", code: Int(made.status), userInfo: [NSLocalizedDescriptionKey: made.stderr])
        }
    }

    /// The `[tls]` section naming these files.
    var configSection: String {
        "[tls]\ncertificate = \"\(certificate)\"\nkey = \"\(key)\""
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}
