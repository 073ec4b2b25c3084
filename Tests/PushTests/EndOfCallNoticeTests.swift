import Foundation
import Model
import Ports
import Push
import Testing

/// The visible notifications of call endings: text templates, the APNs
/// alert and the FCM data message's `title` and `body`.
@Suite struct EndOfCallNoticeTests {
    let now = DirectPushFixtures.sentAt

    func notice(_ title: String?, _ body: String?, category: String? = nil) throws -> EndOfCallNotice {
        EndOfCallNotice(title: try title.map { try PushTextTemplate(source: $0) },
                        body: try body.map { try PushTextTemplate(source: $0) }, category: category)
    }

    func apns(_ message: PushMessage, notices: EndOfCallNotices, format: PushPayloadFormat = .incomingCallEvent)
        throws -> (headers: [String: String], object: [String: PushJSONValue])
    {
        let provider = APNsFixtures.provider(format: format, notices: notices)
        guard case .send(let request) = provider.request(for: message, at: now) else { throw PushTemplateError("no request") }
        let headers = Dictionary(request.headers.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })
        return (headers, try JSONDecoder().decode([String: PushJSONValue].self, from: request.body))
    }

    func fcm(_ message: PushMessage, notices: EndOfCallNotices, format: PushPayloadFormat = .incomingCallEvent)
        throws -> [String: PushJSONValue]
    {
        let provider = try FCMFixtures.provider(format: format, notices: notices)
        guard case .send(let request) = provider.request(for: message, at: now) else { throw PushTemplateError("no request") }
        guard case .object(let object)? = try JSONDecoder().decode([String: PushJSONValue].self, from: request.body)["message"]
        else { throw PushTemplateError("no message") }
        return object
    }

    // MARK: Text templates

    @Test func textTemplatesInsertVariablesAsTheyAreWithoutJSONOrHTMLEscaping() throws {
        let message = DirectPushFixtures.message(event: .missed, callerName: #"Bob "B" <&> \ O'Neil"#)
        let template = try PushTextTemplate(source: "  Missed call from {{caller_name}} ({{{caller_number}}}) for {{callee}}\n")
        #expect(template.render(message) == #"Missed call from Bob "B" <&> \ O'Neil (+4915112345678) for bob"#)
    }

    @Test func theCallerFallsBackFromNameToNumberToUser() throws {
        let template = try PushTextTemplate(source: EndOfCallNotices.standardMissedBody)
        #expect(template.render(DirectPushFixtures.message(event: .missed)) == "Alice Smith")
        #expect(template.render(DirectPushFixtures.message(event: .missed, callerName: " ")) == "+4915112345678")
        #expect(template.render(DirectPushFixtures.message(event: .missed, callerName: nil, callerUser: "alice")) == "alice")
        #expect(template.render(DirectPushFixtures.message(event: .missed, callerName: nil, callerUser: nil))
            == "Unknown caller")
    }

    @Test func aSyntaxErrorSaysWhereInTheOperatorsText() {
        #expect(throws: PushTemplateError.self) { try PushTextTemplate(source: "Missed {{#caller}}") }
        do {
            _ = try PushTextTemplate(source: "Missed {{/caller}}")
            Issue.record("accepted")
        } catch {
            #expect(error.description.hasPrefix("push template syntax error at line 1, column "), "\(error)")
            // The column is counted in the operator's text, without the plain-text pragma.
            let after = error.description.components(separatedBy: "column ").dropFirst().first ?? ""
            let column = Int(after.prefix { $0.isNumber }) ?? 99
            #expect(column <= 19, "\(error)")
        }
    }

    // MARK: APNs

    @Test func aMissedCallIsTheAppsAlertWithThreadAndCategory() throws {
        let notices = EndOfCallNotices(missed: try notice("Missed: {{caller}}", "{{caller_number}} called {{callee}}",
                                                          category: "MISSED_CALL"))
        let (headers, object) = try apns(DirectPushFixtures.message(event: .missed), notices: notices)
        #expect(headers["apns-push-type"] == "alert")
        #expect(headers["apns-topic"] == "com.example.phone")
        #expect(headers["apns-priority"] == "10")
        #expect(headers["apns-expiration"] == "1700086400")
        #expect(object["aps"] == .object([
            "alert": .object(["title": .string("Missed: Alice Smith"), "body": .string("+4915112345678 called bob")]),
            "thread-id": .string("call-1@pbx.example.com"), "category": .string("MISSED_CALL"),
            "sound": .string("ring.caf"), "badge": .integer(2),
        ]))
        #expect(object["callEnded"] != nil, "the app's format is kept beside aps")
    }

    @Test func aPartThatRendersEmptyIsLeftOut() throws {
        let notices = EndOfCallNotices(missed: try notice("{{caller_name}}", "Call from {{caller_user}}"))
        let message = DirectPushFixtures.message(event: .missed, callerName: nil)
        let (_, object) = try apns(message, notices: notices)
        guard case .object(let aps)? = object["aps"] else { Issue.record("no aps"); return }
        #expect(aps["alert"] == .object(["body": .string("Call from +49 151 1234-5678")]))
    }

    @Test func answeredElsewhereIsSilentUnlessTheAppGivesItText() throws {
        let message = DirectPushFixtures.message(event: .answeredElsewhere)
        let silent = try apns(message, notices: .standard)
        #expect(silent.headers["apns-push-type"] == "background")
        #expect(silent.headers["apns-priority"] == "5")
        #expect(silent.object["aps"] == .object(["content-available": .integer(1)]))

        let notices = EndOfCallNotices(answeredElsewhere: try notice("Answered elsewhere", nil, category: "ANSWERED"))
        let shown = try apns(message, notices: notices)
        #expect(shown.headers["apns-push-type"] == "alert")
        #expect(shown.headers["apns-topic"] == "com.example.phone")
        #expect(shown.headers["apns-priority"] == "10")
        #expect(shown.object["aps"] == .object([
            "alert": .object(["title": .string("Answered elsewhere")]),
            "thread-id": .string("call-1@pbx.example.com"), "category": .string("ANSWERED"),
            "content-available": .integer(1),
        ]), "no sound and no badge: the call was not missed")
    }

    @Test func anIncomingCallHasNoAlert() throws {
        let notices = EndOfCallNotices(missed: try notice("t", "b"), answeredElsewhere: try notice("t", "b"))
        let (headers, object) = try apns(DirectPushFixtures.message(), notices: notices)
        #expect(headers["apns-push-type"] == "voip")
        #expect(object["aps"] == .object([:]))
    }

    @Test func aTemplatesOwnApsIsKept() throws {
        let template = try PushTemplate(source: #"{"aps": {"alert": "{{event}}"}, "id": "{{pairing_id}}"}"#)
        let (headers, object) = try apns(DirectPushFixtures.message(event: .missed), notices: .standard,
                                         format: .template(template))
        #expect(headers["apns-push-type"] == "alert")
        #expect(object["aps"] == .object(["alert": .string("missed")]))
    }

    // MARK: FCM

    @Test func aMissedCallOnFCMCarriesTitleAndBodyInItsData() throws {
        let notices = EndOfCallNotices(missed: try notice("Missed call", "{{caller}} tried to reach you"))
        let message = try fcm(DirectPushFixtures.message(event: .missed, provider: "fcm"), notices: notices)
        guard case .object(let data)? = message["data"] else { Issue.record("no data"); return }
        #expect(data["title"] == .string("Missed call"))
        #expect(data["body"] == .string("Alice Smith tried to reach you"))
        #expect(data["messageType"] == .string("callEnded"))
        #expect(message["notification"] == nil, "a data-only message: the app shows it")
        #expect(message["android"] == .object(["priority": .string("high"), "ttl": .string("86400s")]))
    }

    @Test func theStandardNoticesOnFCM() throws {
        let missed = try fcm(DirectPushFixtures.message(event: .missed, provider: "fcm", callerName: nil, callerUser: nil),
                             notices: .standard)
        guard case .object(let data)? = missed["data"] else { Issue.record("no data"); return }
        #expect(data["title"] == .string("Missed call"))
        #expect(data["body"] == .string("Unknown caller"))

        let elsewhere = try fcm(DirectPushFixtures.message(event: .answeredElsewhere, provider: "fcm"), notices: .standard)
        guard case .object(let silent)? = elsewhere["data"] else { Issue.record("no data"); return }
        #expect(silent["title"] == nil && silent["body"] == nil)
        #expect(elsewhere["android"] == .object(["priority": .string("high"), "ttl": .string("30s")]))

        let incoming = try fcm(DirectPushFixtures.message(provider: "fcm"), notices: .standard)
        guard case .object(let wake)? = incoming["data"] else { Issue.record("no data"); return }
        #expect(wake["title"] == nil && wake["body"] == nil)
    }

    @Test func aTemplatesOwnTitleIsKeptOnFCM() throws {
        let template = try PushTemplate(source: #"{"title": "mine", "id": "{{pairing_id}}"}"#)
        let message = try fcm(DirectPushFixtures.message(event: .missed, provider: "fcm"), notices: .standard,
                              format: .template(template))
        guard case .object(let data)? = message["data"] else { Issue.record("no data"); return }
        #expect(data["title"] == .string("mine"))
        #expect(data["body"] == .string("Alice Smith"))
    }

    @Test func theCallerVariableIsInJSONTemplatesToo() throws {
        let template = try PushTemplate(source: #"{"who": "{{caller}}"}"#)
        let message = DirectPushFixtures.message(event: .missed, callerName: #"A "quoted" name"#)
        #expect(DirectPushFixtures.text(try template.render(message).get()) == #"{"who":"A \"quoted\" name"}"#)
    }
}
