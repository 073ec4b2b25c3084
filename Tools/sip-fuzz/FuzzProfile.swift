import AttackCommandLine

/// `sip-fuzz`'s shared options: mutated inputs, probed by OPTIONS requests.
enum FuzzProfile: AttackToolProfile {
    static let defaults = (traffic: "inputs", prober: "the liveness probe", rate: 200.0, duration: 60.0,
                           source: "127.0.0.2", probeInterval: 0.2)
}
