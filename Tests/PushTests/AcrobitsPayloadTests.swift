import Foundation
import Model
import Ports
import Push
import XCTest

final class AcrobitsPayloadTests: XCTestCase {
    func testIncomingCallFieldsUseTheGatewayNames() {
        XCTAssertEqual(AcrobitsPayload(PushFixtures.incomingCall()).fields, PushFixtures.incomingCallFields)
    }

    func testOptionalFieldsAreLeftOutWhenNotSet() {
        let missed = PushMessage(provider: "acrobits", event: .missed, tupleID: 1, appID: "com.acrobits.softphone",
                                 deviceToken: "t", selector: "s", pairingID: "call-1", callerDisplayName: nil,
                                 callerUser: nil, callerDomain: nil, media: nil, badge: nil, sound: nil,
                                 sentAt: Date(timeIntervalSince1970: 42.9))
        XCTAssertEqual(AcrobitsPayload(missed).fields, [
            "verb": "NotifyIncomingCallMissed", "AppId": "com.acrobits.softphone", "DeviceToken": "t",
            "Selector": "s", "Id": "call-1", "Timestamp": "42",
        ])
    }

    func testEachCallEventHasItsVerbABindingRefreshNone() {
        XCTAssertEqual(PushEvent.allCases.map { AcrobitsVerb($0)?.rawValue },
                       ["NotifyIncomingCall", "NotifyIncomingCallMissed", "NotifyIncomingCallAnsweredElsewhere", nil])
    }

    func testJSONBodyIsOneObjectOfStrings() throws {
        let payload = AcrobitsPayload(PushFixtures.incomingCall(id: "x/y\"z"))
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: payload.jsonBody) as? [String: String])
        XCTAssertEqual(object, payload.fields)
    }
}
