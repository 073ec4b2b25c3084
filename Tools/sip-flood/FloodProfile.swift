import AttackCommandLine

/// `sip-flood`'s shared options: INVITEs, probed by a legitimate client's
/// REGISTERs.
enum FloodProfile: AttackToolProfile {
    static let defaults = (traffic: "INVITEs", prober: "the legitimate client", rate: 20000.0, duration: 10.0,
                           source: "127.0.0.3", probeInterval: 0.1)
}
