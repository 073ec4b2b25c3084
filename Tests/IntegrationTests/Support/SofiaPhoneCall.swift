/// A call on one test phone, incoming or outgoing: what `SofiaPhone.bye(_:)`
/// and `SofiaPhone.waitForBye(_:timeout:)` take.
protocol SofiaPhoneCall: Sendable {
    /// The phone's own number for the call, unique within that phone.
    var callNumber: Int { get }
}
