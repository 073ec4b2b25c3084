import Foundation

/// Sofia's TLS transport reads its key and certificate from one file,
/// `agent.pem`, in a directory. sipwake's config names a certificate and a key
/// file, so a private directory (mode 0700) is made at start with the two
/// concatenated, and removed at shutdown.
struct TLSCertificateDirectory {
    let path: String

    init(certificate: String, key: String) throws {
        let fm = FileManager.default
        let dir = fm.temporaryDirectory.appendingPathComponent("sipwake-tls-\(UUID().uuidString)")
        try fm.createDirectory(at: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let keyData = try Data(contentsOf: URL(fileURLWithPath: key))
        let certData = try Data(contentsOf: URL(fileURLWithPath: certificate))
        var pem = keyData
        if pem.last != UInt8(ascii: "\n") { pem.append(UInt8(ascii: "\n")) }
        pem.append(certData)
        let agent = dir.appendingPathComponent("agent.pem")
        guard fm.createFile(atPath: agent.path, contents: pem, attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown)
        }
        path = dir.path
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
