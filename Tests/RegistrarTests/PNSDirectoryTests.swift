import Model
import Registrar
import Testing

/// Which app an RFC 8599 Contact names, and the device tuple its pn-prid makes.
@Suite struct PNSDirectoryTests {
    let directory = PNSDirectory(apps: [
        PNSApp(name: "phone-ios", pns: "apns", params: ["ABCDE12345.com.example.phone"], provider: "apns",
               appID: "com.example.phone"),
        PNSApp(name: "phone-ios-dev", pns: "apns.dev", params: ["ABCDE12345.com.example.phone"], provider: "apns",
               appID: "com.example.phone.dev"),
        PNSApp(name: "phone-android", pns: "fcm", params: ["example-phone", "929724111839"], provider: "fcm",
               appID: "com.example.phone.android"),
    ])

    func device(_ push: SIPPushParameters) -> PNSDevice? {
        if case .device(let device) = directory.resolve(push) { return device }
        return nil
    }

    @Test func anAPNsVoIPTokenIsTheCallsPairAndTheParamsServicesAreIgnoredForMatching() throws {
        for param in ["ABCDE12345.com.example.phone.voip", "ABCDE12345.com.example.phone", "ABCDE12345.com.example.phone.voip&remote"] {
            let found = try #require(device(SIPPushParameters(provider: "APNS", prid: "aa11", param: param)), "\(param)")
            #expect(found.app.name == "phone-ios")
            #expect(found.tokenCalls == "aa11")
            #expect(found.tokenOther == nil, "a lone VoIP token gets no end-of-call push")
            #expect(found.platform == .ios)
        }
    }

    @Test func linphonesCombinedPridGivesTheVoIPAndTheAlertToken() throws {
        let found = try #require(device(SIPPushParameters(
            provider: "apns", prid: "VOIP1:voip&ALERT2:remote", param: "ABCDE12345.com.example.phone.voip&remote")))
        #expect(found.tokenCalls == "VOIP1")
        #expect(found.tokenOther == "ALERT2")
        let reversed = try #require(device(SIPPushParameters(
            provider: "apns", prid: "ALERT2:remote&VOIP1:voip", param: "ABCDE12345.com.example.phone.remote&voip")))
        #expect(reversed.tokenCalls == "VOIP1")
        #expect(reversed.tokenOther == "ALERT2")
    }

    @Test func aSandboxBuildReachesTheSandboxApp() throws {
        let found = try #require(device(SIPPushParameters(provider: "apns.dev", prid: "t", param: "ABCDE12345.com.example.phone.voip")))
        #expect(found.app.appID == "com.example.phone.dev")
    }

    @Test func anAPNsPridWithoutAVoIPTokenMakesNoDevice() {
        #expect(directory.resolve(SIPPushParameters(provider: "apns", prid: "ALERT:remote", param: "ABCDE12345.com.example.phone"))
            == .noDevice(reason: "pn-prid has no VoIP token"))
        #expect(directory.resolve(SIPPushParameters(provider: "apns", prid: "T", param: "ABCDE12345.com.example.phone.remote"))
            == .noDevice(reason: "pn-prid has no VoIP token"))
    }

    @Test func fcmMatchesTheProjectOrTheConfiguredParamAndUsesOneTokenForBoth() throws {
        for param in ["example-phone", "929724111839"] {
            let found = try #require(device(SIPPushParameters(provider: "fcm", prid: "fcm-token", param: param)))
            #expect(found.app.name == "phone-android")
            #expect(found.tokenCalls == "fcm-token")
            #expect(found.tokenOther == "fcm-token")
            #expect(found.platform == .android)
        }
        #expect(device(SIPPushParameters(provider: "fcm", prid: "fcm-token")) != nil, "one fcm app needs no pn-param")
    }

    @Test func anUnknownServiceOrAppIsUnsupported() {
        for push in [SIPPushParameters(provider: "webpush", prid: "x", param: "y"),
                     SIPPushParameters(provider: "apns", prid: "x", param: "OTHERTEAM1.com.example.phone.voip"),
                     SIPPushParameters(provider: "fcm", prid: "x", param: "another-project")] {
            guard case .unsupported = directory.resolve(push) else {
                Issue.record("\(push) should be unsupported")
                continue
            }
        }
        #expect(PNSDirectory(apps: []).resolve(SIPPushParameters(provider: "webpush", prid: "x", param: "y"))
            == .unsupported(reason: "no app uses pn-provider webpush"))
        #expect(directory.services == ["apns", "apns.dev", "fcm"])
    }

    @Test func aProviderAloneAsksWhetherTheServiceIsSupported() {
        #expect(directory.resolve(SIPPushParameters(provider: "fcm")) == .noDevice(reason: "no pn-prid"))
        let twoAPNs = PNSDirectory(apps: [
            PNSApp(name: "a", pns: "apns", params: ["T1.a"], provider: "apns", appID: "a"),
            PNSApp(name: "b", pns: "apns", params: ["T1.b"], provider: "apns", appID: "b"),
        ])
        guard case .unsupported = twoAPNs.resolve(SIPPushParameters(provider: "apns", prid: "x")) else {
            Issue.record("two apns apps and no pn-param: nothing says which")
            return
        }
    }

    @Test func theSelectorIsTheUserAndTheInstanceElseThePushToken() {
        let push = SIPPushParameters(provider: "fcm", prid: "tok")
        #expect(push.selector(aor: "alice", instanceID: "<urn:uuid:1>") == "rfc8599:alice:<urn:uuid:1>")
        #expect(push.selector(aor: "bob", instanceID: "<urn:uuid:1>") == "rfc8599:bob:<urn:uuid:1>",
                "two accounts of one phone are two push targets")
        #expect(push.selector(aor: "alice", instanceID: nil) == "rfc8599:alice:pn-prid:tok")
        #expect(SIPPushParameters(provider: "fcm").selector(aor: "alice", instanceID: nil) == nil)
        let long = SIPPushParameters(provider: "fcm", prid: String(repeating: "x", count: 4000))
        #expect(long.selector(aor: "alice", instanceID: nil)?.count == 256)
    }

    @Test func aKnownServiceNoAppUsesIsPairedOnlyAndAnUnknownOneUnsupported() {
        let none = PNSDirectory(apps: [])
        for provider in ["acrobits", "apns", "apns.dev", "fcm"] {
            #expect(none.resolve(SIPPushParameters(provider: provider, prid: "t")) == .reported, "\(provider)")
        }
        guard case .unsupported = none.resolve(SIPPushParameters(provider: "nosuch", prid: "t")) else {
            Issue.record("an unknown service is unsupported")
            return
        }
        #expect(none.services.isEmpty)
        // A service an app table uses is that app's: a wrong pn-param is not hidden.
        guard case .unsupported = directory.resolve(SIPPushParameters(provider: "fcm", prid: "t", param: "other")) else {
            Issue.record("a wrong pn-param of a configured service is unsupported")
            return
        }
        #expect(directory.resolve(SIPPushParameters(provider: "acrobits", prid: "t")) == .reported)
    }

    @Test func malformedValuesAreInvalidBeforeAnythingIsMatched() {
        let cases: [(SIPPushParameters, String)] = [
            (SIPPushParameters(provider: "fcm", prid: "a\r\nVia: x", param: "example-phone"), "Bad pn-prid"),
            (SIPPushParameters(provider: "fcm", prid: "a b"), "Bad pn-prid"),
            (SIPPushParameters(provider: "fcm", prid: String(repeating: "t", count: 4097)), "Bad pn-prid"),
            (SIPPushParameters(provider: "fcm\"x", prid: "t"), "Bad pn-provider"),
            (SIPPushParameters(provider: String(repeating: "p", count: 33), prid: "t"), "Bad pn-provider"),
            (SIPPushParameters(provider: "apns", prid: "t", param: "T.b\u{7f}"), "Bad pn-param"),
            (SIPPushParameters(provider: "apns", prid: "t", purr: String(repeating: "u", count: 129)), "Bad pn-purr"),
        ]
        for (push, reason) in cases {
            #expect(directory.resolve(push) == .invalid(reason: reason), "\(push)")
        }
        #expect(device(SIPPushParameters(provider: "fcm", prid: String(repeating: "t", count: 4096))) != nil)
    }
}
