/// What the push sink checks when it plays a customer's backend receiving
/// sipwake's call webhooks (`POST /webhook`).
public struct PushSinkWebhookSettings: Sendable, Equatable, CustomStringConvertible {
    /// The path webhooks are posted to.
    public var path: String
    /// The secrets a signature may be made with (any one valid `v1=` passes);
    /// empty: signatures are recorded but not checked.
    public var secrets: [String]
    /// How far the signature's timestamp may be from the sink's clock, in
    /// seconds, before the request is refused as a replay.
    public var tolerance: Int

    public init(path: String = "/webhook", secrets: [String] = [], tolerance: Int = 300) {
        self.path = path
        self.secrets = secrets
        self.tolerance = tolerance
    }

    public var description: String {
        "PushSinkWebhookSettings(path: \(path), secrets: \(secrets.count) hidden, tolerance: \(tolerance))"
    }
}
