import Crypto
import Foundation
import Model
@testable import SIPWake
import Testing

/// The `swk` Record-Route token: its MAC is the first 8 bytes of
/// HMAC-SHA-256 over "flow|Call-ID", so a Route this proxy never wrote, or
/// one copied into another dialog, relays nothing.
@Suite struct RecordRouteTokenTests {
    let secret = Array("a record-route secret".utf8)

    @Test func aTokenReadsBackInItsOwnDialogOnly() throws {
        let key = RecordRouteKey(secret: secret)
        let flow = BindingSource(transport: .tcp, host: "203.0.113.7", port: 40123, connectionID: 9)
        let text = RecordRouteToken(flow: flow).encoded(callID: "call-1@pbx", key: key)
        #expect(RecordRouteToken(encoded: text, callID: "call-1@pbx", key: key) == RecordRouteToken(flow: flow))
        #expect(RecordRouteToken(encoded: text, callID: "call-2@pbx", key: key) == nil)
        #expect(RecordRouteToken(encoded: text, callID: "call-1@pbx", key: RecordRouteKey(secret: [1, 2, 3])) == nil)
        let tampered = text.replacingOccurrences(of: "203.0.113.7", with: "198.51.100.1")
        #expect(RecordRouteToken(encoded: tampered, callID: "call-1@pbx", key: key) == nil)
    }

    @Test func theMACIsHMACSHA256OfFlowAndCallIDCutTo8Bytes() {
        let key = RecordRouteKey(secret: secret)
        for callID in ["c@pbx", "", "ünïcode-call@pbx"] {
            let text = RecordRouteToken(flow: nil).encoded(callID: callID, key: key)
            let full = HMAC<SHA256>.authenticationCode(for: Array("-|\(callID)".utf8), using: SymmetricKey(data: secret))
            let hex = full.prefix(8).map { String(format: "%02x", $0) }.joined()
            #expect(text == "-.\(hex)")
            // The same key signs many tokens alike: its keyed state is copied, never changed.
            #expect(RecordRouteToken(flow: nil).encoded(callID: callID, key: key) == text)
        }
    }
}
