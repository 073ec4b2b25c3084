import Foundation
import JWTKit
import XCTest

/// Keys and certificates for the push sink's TLS, APNs and OAuth tests, made
/// with the openssl command in a fresh temporary directory: a CA, a server
/// certificate it signed for 127.0.0.1 and localhost, an APNs `.p8` key and a
/// second one the sink does not know, a service account (RSA) and a
/// stranger's RSA key.
struct SinkTestKeys {
    static let openssl = "/usr/bin/openssl"
    static let clientEmail = "sipwake-push@sipwake-lab.iam.gserviceaccount.com"

    let directory: URL
    let caCertificate: String
    let serverCertificate: String
    let serverKey: String
    let apnsKey: String
    let otherAPNsKey: String
    let serviceAccount: String
    let serviceAccountKey: String
    let otherRSAKey: String

    init() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: Self.openssl), "openssl not installed")
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("sink-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        directory = base
        let path = { (name: String) in base.appendingPathComponent(name).path }
        caCertificate = path("ca.pem")
        serverCertificate = path("server.pem")
        serverKey = path("server-key.pem")
        apnsKey = path("AuthKey_TESTKEY123.p8")
        otherAPNsKey = path("other.p8")
        serviceAccount = path("service-account.json")
        serviceAccountKey = path("service-account-key.pem")
        otherRSAKey = path("other-rsa.pem")

        try Self.run(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                      "-keyout", path("ca-key.pem"), "-out", caCertificate, "-days", "2", "-subj", "/CN=sipwake test CA"])
        try Self.run(["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                      "-keyout", serverKey, "-out", path("server.csr"), "-subj", "/CN=localhost"])
        try "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n"
            .write(toFile: path("server.ext"), atomically: true, encoding: .utf8)
        try Self.run(["x509", "-req", "-in", path("server.csr"), "-CA", caCertificate, "-CAkey", path("ca-key.pem"),
                      "-CAcreateserial", "-out", serverCertificate, "-days", "2", "-extfile", path("server.ext")])
        try Self.run(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", apnsKey])
        try Self.run(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", otherAPNsKey])
        try Self.run(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", serviceAccountKey])
        try Self.run(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", otherRSAKey])
        let account: [String: String] = [
            "type": "service_account", "project_id": "sipwake-lab", "private_key_id": "0123456789abcdef",
            "private_key": try String(contentsOfFile: serviceAccountKey, encoding: .utf8),
            "client_email": Self.clientEmail, "token_uri": "https://oauth2.googleapis.com/token",
        ]
        try JSONSerialization.data(withJSONObject: account).write(to: URL(fileURLWithPath: serviceAccount))
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    func text(_ path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }

    /// Writes `text` to a new file in the directory and returns its path.
    func file(_ name: String, _ text: String) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// An APNs provider token: ES256 by `keyPath`, header `kid`, claims `iss` and `iat`.
    func apnsJWT(keyPath: String? = nil, kid: String = "TESTKEY123", issuer: String = "TEAM123456",
                 issuedAt: Date = Date()) async throws -> String {
        let key = try ES256PrivateKey(pem: try text(keyPath ?? apnsKey))
        let keys = await JWTKeyCollection().add(ecdsa: key)
        return try await keys.sign(SinkTestClaims(iss: issuer, iat: Int(issuedAt.timeIntervalSince1970)), kid: JWKIdentifier(string: kid))
    }

    /// A service account's OAuth assertion: RS256 by `keyPath`.
    func assertion(keyPath: String? = nil, issuer: String = SinkTestKeys.clientEmail, audience: String,
                   scope: String = "https://www.googleapis.com/auth/firebase.messaging",
                   issuedAt: Date = Date(), lifetime: Int = 3600) async throws -> String {
        let key = try Insecure.RSA.PrivateKey(pem: try text(keyPath ?? serviceAccountKey))
        let keys = await JWTKeyCollection().add(rsa: key, digestAlgorithm: .sha256)
        let iat = Int(issuedAt.timeIntervalSince1970)
        return try await keys.sign(SinkTestClaims(iss: issuer, iat: iat, exp: iat + lifetime, aud: audience, scope: scope),
                                   kid: JWKIdentifier(string: "0123456789abcdef"))
    }

    @discardableResult
    static func run(_ arguments: [String]) throws -> String {
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
