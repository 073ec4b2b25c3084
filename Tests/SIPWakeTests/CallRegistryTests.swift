@testable import SIPWake
import Testing

@Suite struct CallRegistryTests {
    @Test func callsAreFoundByIdAndByCallee() {
        var registry = CallRegistry<String>()
        registry.add("first call to alice", key: "a1", aor: "alice")
        registry.add("second call to alice", key: "a2", aor: "alice")
        registry.add("call to bob", key: "b1", aor: "bob")
        #expect(registry.count == 3)
        #expect(registry["a2"] == "second call to alice")
        #expect(registry.keys(ofAOR: "alice") == ["a1", "a2"])
        #expect(registry.keys(ofAOR: "carol").isEmpty)
        #expect(Set(registry.keys) == ["a1", "a2", "b1"])
    }

    @Test func aCalleeWithNoCallsLeftIsForgotten() {
        var registry = CallRegistry<String>()
        registry.add("call", key: "a1", aor: "alice")
        registry.add("call", key: "b1", aor: "bob")
        #expect(registry.remove("a1", aor: "alice") == "call")
        #expect(registry.remove("a1", aor: "alice") == nil)
        #expect(registry.keys(ofAOR: "alice").isEmpty)
        #expect(registry.aorCount == 1)
        #expect(registry["a1"] == nil)
        _ = registry.remove("b1", aor: "bob")
        #expect(registry.isEmpty)
        #expect(registry.aorCount == 0)
    }
}
