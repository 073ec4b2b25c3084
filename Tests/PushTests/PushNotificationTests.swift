import Foundation
import Push
import XCTest

final class PushNotificationTests: XCTestCase {
    func testIncomingCallFieldsUseTheGatewayNames() {
        XCTAssertEqual(PushFixtures.incomingCall().fields, PushFixtures.incomingCallFields)
    }

    func testOptionalFieldsAreLeftOutWhenNotSet() {
        let missed = PushNotification(verb: .missed, appID: "com.acrobits.softphone", deviceToken: "t", selector: "s",
                                      pairingID: "call-1", callerDisplayName: nil, callerUser: nil, callerDomain: nil,
                                      media: nil, badge: nil, sound: nil, timestamp: 42)
        XCTAssertEqual(missed.fields, [
            "verb": "NotifyIncomingCallMissed", "AppId": "com.acrobits.softphone", "DeviceToken": "t",
            "Selector": "s", "Id": "call-1", "Timestamp": "42",
        ])
    }

    func testJSONBodyIsOneObjectOfStrings() throws {
        let notification = PushFixtures.incomingCall(id: "x/y\"z")
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: notification.jsonBody) as? [String: String])
        XCTAssertEqual(object, notification.fields)
    }
}
