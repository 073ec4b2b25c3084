import Foundation
import Model
import Push
import Testing

/// Operator templates: every variable, escaping, and the checks made when a template is read.
@Suite struct PushTemplateTests {
    static let everyVariable = """
        {"id": "{{pairing_id}}", "event": "{{event}}", "eventId": "{{event_id}}", "name": "{{caller_name}}",
         "number": "{{caller_number}}", "user": "{{caller_user}}", "uri": "{{caller_uri}}", "callee": "{{callee}}",
         "media": "{{media}}", "video": {{has_video}}, "started": "{{started_at}}", "sent": "{{sent_at}}",
         "ts": {{timestamp}}, "app": "{{app_id}}", "selector": "{{selector}}", "badge": {{badge}}, "sound": "{{sound}}"}
        """

    @Test func everyVariableRenders() throws {
        let template = try PushTemplate(source: Self.everyVariable)
        let data = try template.render(DirectPushFixtures.message()).get()
        #expect(DirectPushFixtures.text(data) == """
            {"app":"com.example.phone","badge":2,"callee":"bob","event":"incoming-call",\
            "eventId":"6f1c2a3b-4d5e-4f60-8172-93a4b5c6d7e8","id":"call-1@pbx.example.com","media":"video",\
            "name":"Alice Smith","number":"+4915112345678","selector":"sel-1","sent":"2023-11-14T22:13:20.000Z",\
            "sound":"ring.caf","started":"2023-11-14T22:13:18.482Z","ts":1700000000,\
            "uri":"sip:+4915112345678@pbx.example.com","user":"+49 151 1234-5678","video":true}
            """)
    }

    @Test func textIsEscapedForJSONWhateverTheMustacheTag() throws {
        let name = "Bob \"The Boss\" O'Neil\\ <&>\nline\ttab\u{01}"
        let template = try PushTemplate(source: #"{"a": "{{caller_name}}", "b": "{{{caller_name}}}", "c": "{{& caller_name}}"}"#)
        let data = try template.render(DirectPushFixtures.message(callerName: name)).get()
        let object = try JSONDecoder().decode([String: String].self, from: data)
        #expect(object == ["a": name, "b": name, "c": name])
    }

    @Test func aSyntaxErrorIsRefusedWithWhere() {
        #expect {
            try PushTemplate(source: "{\"a\": \"{{#caller_name}}\"}\n{{/callee}}")
        } throws: { error in
            let text = "\(error)"
            return text.contains("syntax error") && text.contains("line")
        }
    }

    @Test func outputThatIsNotJSONIsRefusedAtInit() {
        #expect {
            try PushTemplate(source: #"{"name": {{caller_name}}}"#)
        } throws: { error in
            "\(error)".contains("does not render a JSON object")
        }
        #expect(throws: PushTemplateError.self) { try PushTemplate(source: #"["{{callee}}"]"#) }
    }

    @Test func aPushTheTemplateCannotRenderFailsClearly() throws {
        var message = DirectPushFixtures.message()
        message.badge = nil
        let template = try PushTemplate(source: #"{"badge": {{badge}}}"#)
        #expect(template.render(message) == .failure(PushTemplateError("push template rendered invalid JSON")))
        let optional = try PushTemplate(source: #"{{#badge}}{"badge": {{badge}}}{{/badge}}{{^badge}}{}{{/badge}}"#)
        #expect(try DirectPushFixtures.text(optional.render(message).get()) == "{}")
    }

    @Test func onFCMNonStringValuesBecomeStrings() throws {
        let template = try PushTemplate(source: #"{"video": {{has_video}}, "ts": {{timestamp}}, "n": 1.5, "o": {"k": "{{callee}}"}, "z": null, "s": "x"}"#)
        let settings = FCMSettings(appID: "com.example.phone", serviceAccount: try FCMFixtures.account(),
                                   format: .template(template))
        let provider = FCMProvider(settings: settings, credential: PushCredentialStore())
        let body = try provider.body(for: DirectPushFixtures.message()).get()
        let object = try JSONDecoder().decode([String: [String: PushJSONValue]].self, from: body)
        #expect(object["message"]?["data"] == .object([
            "video": .string("true"), "ts": .string("1700000000"), "n": .string("1.5"), "o": .string(#"{"k":"bob"}"#),
            "z": .string(""), "s": .string("x"),
        ]))
    }
}
