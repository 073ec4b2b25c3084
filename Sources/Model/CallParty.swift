/// One side of an answered call's dialog: who hung up.
public enum CallParty: String, Sendable, Codable, CaseIterable {
    /// The side the INVITE came from (the PBX).
    case caller
    /// The device of the callee that answered.
    case callee
}
