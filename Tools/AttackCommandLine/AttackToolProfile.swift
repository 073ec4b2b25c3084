/// What sets one attack tool's shared options apart from the other's: what
/// it sends ("INVITEs", in the plural), who checks the server while it is
/// under attack ("the legitimate client"), and the defaults that suit the
/// tool (`source`: the loopback address the traffic comes from).
public protocol AttackToolProfile {
    static var defaults: (traffic: String, prober: String, rate: Double, duration: Double, source: String,
                          probeInterval: Double) { get }
}
