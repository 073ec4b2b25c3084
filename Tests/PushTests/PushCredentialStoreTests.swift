import Foundation
import Push
import Testing

@Suite struct PushCredentialStoreTests {
    let now = Date(timeIntervalSince1970: 1_700_000_000)

    func credential(_ token: String) -> PushCredential {
        PushCredential(token: token, issuedAt: now, expiresAt: now.addingTimeInterval(600))
    }

    @Test func theCurrentCredentialUntilItExpires() {
        let store = PushCredentialStore()
        #expect(store.current(at: now) == nil)
        store.set(credential("a"))
        #expect(store.current(at: now) == "a")
        #expect(store.current(at: now.addingTimeInterval(599)) == "a")
        #expect(store.current(at: now.addingTimeInterval(600)) == nil)
    }

    @Test func manyRefusalsAtOnceDropTheCredentialOnce() async {
        let store = PushCredentialStore()
        store.set(credential("a"))
        let dropped = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<50 { group.addTask { store.invalidate(ifToken: "a") } }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(dropped == 1)
        #expect(store.current(at: now) == nil)
    }

    @Test func aRefusalOfAnOlderCredentialKeepsTheNewOne() {
        let store = PushCredentialStore()
        store.set(credential("b"))
        #expect(store.invalidate(ifToken: "a") == false)
        #expect(store.current(at: now) == "b")
    }
}
