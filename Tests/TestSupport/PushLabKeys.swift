import Foundation

/// The files a push lab needs, made with the openssl command in a fresh
/// temporary directory: a CA, a server certificate it signed for 127.0.0.1
/// and localhost, an APNs `.p8` token signing key and a Firebase service
/// account (an RSA key in Google's JSON shape).
public struct PushLabKeys: Sendable {
    public static let openssl = "/usr/bin/openssl"
    public static let clientEmail = "sipwake-push@sipwake-lab.iam.gserviceaccount.com"
    public static let projectID = "sipwake-lab"
    public static var opensslInstalled: Bool { FileManager.default.isExecutableFile(atPath: openssl) }

    public let directory: URL
    public let caCertificate: String
    public let serverCertificate: String
    public let serverKey: String
    public let apnsKey: String
    public let serviceAccountKey: String

    public init() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("push-lab-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        directory = base
        let path = { (name: String) in base.appendingPathComponent(name).path }
        caCertificate = path("ca.pem")
        serverCertificate = path("server.pem")
        serverKey = path("server-key.pem")
        apnsKey = path("AuthKey_TESTKEY123.p8")
        serviceAccountKey = path("service-account-key.pem")
        try Self.run(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                      "-keyout", path("ca-key.pem"), "-out", caCertificate, "-days", "2", "-subj", "/CN=sipwake test CA"])
        try Self.run(["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                      "-keyout", serverKey, "-out", path("server.csr"), "-subj", "/CN=localhost"])
        try "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n"
            .write(toFile: path("server.ext"), atomically: true, encoding: .utf8)
        try Self.run(["x509", "-req", "-in", path("server.csr"), "-CA", caCertificate, "-CAkey", path("ca-key.pem"),
                      "-CAcreateserial", "-out", serverCertificate, "-days", "2", "-extfile", path("server.ext")])
        try Self.run(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", apnsKey])
        try Self.run(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", serviceAccountKey])
    }

    /// Writes a service account whose token endpoint is `tokenURI` and returns its path.
    public func serviceAccount(tokenURI: String, name: String = "service-account.json") throws -> String {
        let account: [String: String] = [
            "type": "service_account", "project_id": Self.projectID, "private_key_id": "0123456789abcdef",
            "private_key": try String(contentsOfFile: serviceAccountKey, encoding: .utf8),
            "client_email": Self.clientEmail, "token_uri": tokenURI,
        ]
        let path = directory.appendingPathComponent(name).path
        try JSONSerialization.data(withJSONObject: account).write(to: URL(fileURLWithPath: path))
        return path
    }

    public func text(_ path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }

    public func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs openssl; its standard error when it fails.
    @discardableResult
    public static func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: openssl)
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw NSError(domain: "openssl", code: Int(process.terminationStatus),
                          userInfo: [NSLocalizedDescriptionKey: "openssl \(arguments): \(String(decoding: message, as: UTF8.self))"])
        }
        return String(decoding: message, as: UTF8.self)
    }
}
