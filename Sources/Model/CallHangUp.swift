import Foundation

/// A BYE sipwake relayed in a dialog it record-routed: it ends the answered
/// call of that dialog. The tags tell which dialog (the callee's tag is the
/// To tag of the 2xx that answered) and who hung up.
public struct CallHangUp: Sendable, Equatable {
    /// The BYE's Call-ID: the INVITE's.
    public var callID: String
    public var fromTag: String?
    public var toTag: String?
    /// When the BYE came in.
    public var at: Date

    public init(callID: String, fromTag: String?, toTag: String?, at: Date) {
        self.callID = callID
        self.fromTag = fromTag
        self.toTag = toTag
        self.at = at
    }
}
