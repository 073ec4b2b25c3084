import Crypto
import Foundation
import JWTKit
import Push
import Testing
import _CryptoExtras

/// The credentials sipwake signs, verified with jwt-kit against the public
/// key, and the checks made when keys are read.
@Suite struct PushCredentialSigningTests {
    let now = Date(timeIntervalSince1970: 1_700_000_000)

    struct APNsClaims: JWTPayload, Equatable {
        var iss: String
        var iat: Int
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    struct GoogleClaims: JWTPayload, Equatable {
        var iss: String
        var scope: String
        var aud: String
        var iat: Int
        var exp: Int
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    /// The header of `jwt`, decoded.
    func header(_ jwt: String) throws -> [String: String] {
        var part = String(jwt.split(separator: ".")[0]).replacingOccurrences(of: "-", with: "+")
            .replacingOccurrences(of: "_", with: "/")
        while part.count % 4 != 0 { part += "=" }
        return try JSONDecoder().decode([String: String].self, from: try #require(Data(base64Encoded: part)))
    }

    @Test func anAPNsProviderTokenIsSignedES256WithTheKeyIDAndTeam() async throws {
        let key = DirectPushFixtures.apnsKeyPEM()
        let maker = APNsTokenMaker(appID: "com.example.phone", key: try APNsSigningKey(pem: key.pem),
                                   keyID: "ABC123DEFG", teamID: "TEAM123456")
        let credential = try await maker.makeCredential(at: now.addingTimeInterval(0.7))
        #expect(credential.issuedAt == now)
        #expect(credential.expiresAt == now.addingTimeInterval(3600))
        #expect(maker.renewalTime(of: credential) == now.addingTimeInterval(2400))
        #expect(try header(credential.token)["alg"] == "ES256")
        #expect(try header(credential.token)["kid"] == "ABC123DEFG")

        let verifier = JWTKeyCollection()
        await verifier.add(ecdsa: try ES256PublicKey(pem: key.publicPEM), kid: "ABC123DEFG")
        let claims = try await verifier.verify(credential.token, as: APNsClaims.self)
        #expect(claims == APNsClaims(iss: "TEAM123456", iat: 1_700_000_000))

        let other = JWTKeyCollection()
        await other.add(ecdsa: try ES256PublicKey(pem: DirectPushFixtures.apnsKeyPEM().publicPEM), kid: "ABC123DEFG")
        await #expect(throws: (any Error).self) { try await other.verify(credential.token, as: APNsClaims.self) }
    }

    @Test func aBadAPNsKeyIsRefusedClearly() {
        #expect(throws: APNsSigningKeyError.self) { try APNsSigningKey(pem: "not a key") }
        let rsa = FCMFixtures.keyPair.pem
        #expect {
            try APNsSigningKey(pem: rsa)
        } throws: { error in
            "\(error)".contains("EC P-256") && !"\(error)".contains("BEGIN")
        }
    }

    @Test func theFCMAssertionIsSignedRS256ForGooglesTokenEndpoint() async throws {
        let account = try FCMFixtures.account()
        let http = RecordingHTTP(answer: RecordingHTTP.token("ya29.a", expiresIn: 3599))
        let maker = FCMTokenMaker(appID: "com.example.phone", account: account, http: http)
        let credential = try await maker.makeCredential(at: now)
        #expect(credential == PushCredential(token: "ya29.a", issuedAt: now, expiresAt: now.addingTimeInterval(3599)))
        let request = try #require(http.requests.first)
        #expect(request.url == "https://oauth2.googleapis.com/token")
        #expect(request.headers.first { $0.name == "content-type" }?.value == "application/x-www-form-urlencoded")
        let form = DirectPushFixtures.text(request.body)
        #expect(form.hasPrefix("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion="))
        let assertion = String(form.dropFirst(form.distance(from: form.startIndex, to: try #require(form.range(of: "&assertion="))
            .upperBound)))
        #expect(try header(assertion)["alg"] == "RS256")
        #expect(try header(assertion)["kid"] == "key-id-1")

        let verifier = JWTKeyCollection()
        await verifier.add(rsa: try Insecure.RSA.PublicKey(pem: FCMFixtures.keyPair.publicPEM), digestAlgorithm: .sha256,
                           kid: "key-id-1")
        let claims = try await verifier.verify(assertion, as: GoogleClaims.self)
        #expect(claims == GoogleClaims(iss: "sipwake@phone-project.iam.gserviceaccount.com",
                                       scope: "https://www.googleapis.com/auth/firebase.messaging",
                                       aud: "https://oauth2.googleapis.com/token", iat: 1_700_000_000, exp: 1_700_003_600))
    }

    @Test func aServiceAccountFileIsCheckedFieldByField() throws {
        let pem = FCMFixtures.keyPair.pem
        for field in ["project_id", "client_email", "private_key", "private_key_id"] {
            #expect {
                try FCMServiceAccount(json: DirectPushFixtures.serviceAccountJSON(privateKeyPEM: pem, dropping: field))
            } throws: { error in
                "\(error)" == "Firebase service account file has no \(field)"
            }
        }
        // The signed assertion never travels in clear but to this machine.
        for uri in ["http://oauth2.example.com/token", "ftp://127.0.0.1/token", "not a url"] {
            #expect {
                try FCMServiceAccount(json: DirectPushFixtures.serviceAccountJSON(privateKeyPEM: pem, tokenURI: uri))
            } throws: { error in
                "\(error)".contains("token_uri must be an https URL")
            }
        }
        let lab = try FCMServiceAccount(json: DirectPushFixtures.serviceAccountJSON(
            privateKeyPEM: pem, tokenURI: "http://127.0.0.1:8190/token"))
        #expect(lab.tokenURI == "http://127.0.0.1:8190/token")
        let noURI = try FCMServiceAccount(json: DirectPushFixtures.serviceAccountJSON(privateKeyPEM: pem, tokenURI: nil))
        #expect(noURI.tokenURI == "https://oauth2.googleapis.com/token")
        #expect(noURI.projectID == "phone-project")
        #expect {
            try FCMServiceAccount(json: DirectPushFixtures.serviceAccountJSON(privateKeyPEM: DirectPushFixtures.apnsKeyPEM().pem))
        } throws: { error in
            "\(error)".contains("private_key is not an RSA private key")
        }
        #expect(throws: FCMServiceAccountError("Firebase service account file is not a JSON object")) {
            try FCMServiceAccount(json: Data("[]".utf8))
        }
    }
}
