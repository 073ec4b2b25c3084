/// A TCP or TLS connection to the target, written in whole inputs and read
/// without waiting.
public protocol ByteStream: AnyObject {
    /// Writes every byte (one write call for TCP, one TLS record sequence);
    /// false when the connection failed or the server stopped reading.
    func write(_ bytes: [UInt8]) -> Bool
    /// What arrived within `timeout` seconds (0 = only what is there now).
    func drain(timeout: Double) -> StreamDrain
}
