import Foundation
import JWTKit
import TestSupport
import XCTest

/// Keys and certificates for the push sink's TLS, APNs and OAuth tests, made
/// with the openssl command in a fresh temporary directory: a CA, a server
/// certificate it signed for 127.0.0.1 and localhost, an APNs `.p8` key and a
/// second one the sink does not know, a service account (RSA) and a
/// stranger's RSA key.
struct SinkTestKeys {
    static let openssl = PushLabKeys.openssl
    static let clientEmail = PushLabKeys.clientEmail

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
        try XCTSkipUnless(PushLabKeys.opensslInstalled, "openssl not installed")
        let lab = try PushLabKeys()
        directory = lab.directory
        caCertificate = lab.caCertificate
        serverCertificate = lab.serverCertificate
        serverKey = lab.serverKey
        apnsKey = lab.apnsKey
        serviceAccountKey = lab.serviceAccountKey
        serviceAccount = try lab.serviceAccount(tokenURI: "https://oauth2.googleapis.com/token")
        otherAPNsKey = directory.appendingPathComponent("other.p8").path
        otherRSAKey = directory.appendingPathComponent("other-rsa.pem").path
        try Self.run(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", otherAPNsKey])
        try Self.run(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", otherRSAKey])
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
        try PushLabKeys.run(arguments)
    }
}
