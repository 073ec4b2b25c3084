/// One RFC 8599 device of one user, as the binding-refresh schedule knows
/// it: the AOR and the device tuple's selector (its `+sip.instance`, or its
/// push token when it sent none).
public struct BindingRefreshKey: Sendable, Hashable {
    public var aor: String
    public var selector: String

    public init(aor: String, selector: String) {
        self.aor = aor
        self.selector = selector
    }
}
