import Foundation
import Logging
import Metrics
import Model
import Registrar
import SIPCore
@testable import SIPWake
import SQLiteStorage
import Testing

/// What a REGISTER asks of the RFC 8599 push targets, decided without
/// sockets: which selectors are stored and removed, which old bindings a
/// moving device replaces, and when the phone is refused.
@Suite struct PNSRegistrationsTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let policy = RegistrarPolicy(minExpires: 1, maxExpires: 3600, defaultExpires: 3600, maxBindingsPerAOR: 10)
    static let fcm = PNSApp(name: "android", pns: "fcm", params: ["lab"], provider: "fcm", appID: "com.example.android")

    /// Runs `body` with registrations over a throw-away database.
    func withRegistrations(_ body: (PNSRegistrations) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pns-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try SipwakeDatabase(path: directory.appendingPathComponent("db.sqlite").path)
        defer { try? database.close() }
        let registrations = PNSRegistrations(
            directory: PNSDirectory(apps: [Self.fcm]), refreshBefore: 120, refreshRetries: 2, maxTargetsPerUser: 10,
            tuples: DeviceTupleQueue(store: TupleStore(database: database)), sender: nil,
            logger: Logger(label: "pns-test"), metrics: NOOPMetricsHandler.instance, clock: { [now] in now },
            resume: { _ in })
        try body(registrations)
    }

    func contact(_ uri: String, instance: String? = nil, expires: Int? = nil) -> ContactSpec {
        let parsed = SIPURI(parsing: uri)?.pushParameters
        return ContactSpec(uri: uri, expires: expires, instanceID: instance, push: parsed)
    }

    func binding(_ uri: String, instance: String? = nil) -> Binding {
        Binding(aor: "alice", contact: uri, instanceID: instance, callID: "c", cseq: 1, expiresAt: now.addingTimeInterval(600),
                source: BindingSource(transport: .udp, host: "192.0.2.1", port: 5060), registeredAt: now, updatedAt: now)
    }

    func request(_ contacts: [ContactSpec], wildcard: Bool = false) -> RegisterRequest {
        RegisterRequest(aor: "alice", callID: "c", cseq: 2, expiresHeader: wildcard ? 0 : nil, contacts: contacts,
                        isWildcard: wildcard, source: BindingSource(transport: .udp, host: "192.0.2.1", port: 5060))
    }

    func work(_ check: PNSRegistrations.Check) -> [PNSWork] {
        if case .accept(_, let work) = check { return work }
        Issue.record("refused: \(check)")
        return []
    }

    static let pushed = "sip:alice@192.0.2.1:5060;pn-provider=fcm;pn-param=lab;pn-prid=tok-1"
    static let instance = "<urn:uuid:1>"
    static let selector = "rfc8599:alice:<urn:uuid:1>"

    @Test func aPushContactIsStoredUnderTheUsersSelector() throws {
        try withRegistrations { registrations in
            let checked = work(registrations.check(request([contact(Self.pushed, instance: Self.instance)]),
                                                   current: [], policy: policy, now: now))
            #expect(checked.map(\.selector) == [Self.selector])
            guard case .store(_, let device, _, let expiresAt) = checked.first else { return }
            #expect(device.tokenCalls == "tok-1")
            #expect(expiresAt == now.addingTimeInterval(3600))
        }
    }

    @Test func unregisteringByInstanceAloneOrDroppingThePushParametersRemovesTheTarget() throws {
        try withRegistrations { registrations in
            let current = [binding(Self.pushed, instance: Self.instance)]
            let bare = "sip:alice@192.0.2.1:5060"
            for spec in [contact(bare, instance: Self.instance, expires: 0), contact(bare, instance: Self.instance)] {
                let checked = work(registrations.check(request([spec]), current: current, policy: policy, now: now))
                #expect(checked == [.remove(selector: Self.selector)], "\(spec)")
            }
        }
    }

    @Test func aWildcardRemovesEveryPushTarget() throws {
        try withRegistrations { registrations in
            let current = [binding(Self.pushed, instance: Self.instance), binding("sip:alice@192.0.2.9")]
            let checked = work(registrations.check(request([], wildcard: true), current: current, policy: policy, now: now))
            #expect(checked == [.remove(selector: Self.selector)])
        }
    }

    @Test func aDeviceWithoutInstanceComingBackFromANewAddressReplacesItsOldBinding() throws {
        try withRegistrations { registrations in
            let old = "sip:alice@192.0.2.1:5060;pn-provider=fcm;pn-param=lab;pn-prid=tok-1"
            let moved = "sip:alice@198.51.100.4:40000;pn-provider=fcm;pn-param=lab;pn-prid=tok-1"
            let other = "sip:alice@198.51.100.5:40000;pn-provider=fcm;pn-param=lab;pn-prid=tok-2"
            let check = registrations.check(request([contact(moved)]), current: [binding(old), binding(other)],
                                            policy: policy, now: now)
            guard case .accept(let rewritten, let work) = check else {
                Issue.record("refused")
                return
            }
            #expect(work.map(\.selector) == ["rfc8599:alice:pn-prid:tok-1"])
            #expect(rewritten.contacts.map(\.uri) == [moved, old], "the old address of the same token goes")
            #expect(rewritten.contacts.last?.expires == 0)
        }
    }

    @Test func unknownServicesAreRefusedMalformedOnesInvalidAndUnusableTokensPromiseNothing() throws {
        try withRegistrations { registrations in
            let unknown = registrations.check(request([contact("sip:alice@192.0.2.1;pn-provider=nosuch;pn-prid=t")]),
                                              current: [], policy: policy, now: now)
            guard case .reject = unknown else {
                Issue.record("nosuch: \(unknown)")
                return
            }
            #expect(registrations.unsupportedFeatureCaps == "*;+sip.pns=\"fcm\"")
            let malformed = registrations.check(request([contact("sip:alice@192.0.2.1;pn-provider=fcm;pn-prid=a%0Db")]),
                                                current: [], policy: policy, now: now)
            guard case .invalid(let reason) = malformed else {
                Issue.record("malformed: \(malformed)")
                return
            }
            #expect(reason == "Bad pn-prid")
            // pn-provider alone asks whether the service is supported.
            #expect(work(registrations.check(request([contact("sip:alice@192.0.2.1;pn-provider=fcm")]),
                                             current: [], policy: policy, now: now)) == [.query(pns: "fcm")])
            // A service of apps reported elsewhere is paired only.
            #expect(work(registrations.check(request([contact("sip:alice@192.0.2.1;pn-provider=acrobits;pn-prid=t")]),
                                             current: [], policy: policy, now: now)).isEmpty)
        }
    }
}
