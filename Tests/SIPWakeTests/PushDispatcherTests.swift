import Forking
import Foundation
import Model
import Ports
@testable import SIPWake
import Synchronization
import Testing

/// A push sender that keeps what it is given and answers each push with `answer`.
final class KeptPushes: PushSender {
    private let kept = Mutex<[PushMessage]>([])
    let answer: PushResult
    init(answer: PushResult) { self.answer = answer }
    var messages: [PushMessage] { kept.withLock { $0 } }
    func send(_ message: PushMessage, completion: @escaping @Sendable (PushResult) -> Void) {
        kept.withLock { $0.append(message) }
        completion(answer)
    }
}

@Suite struct PushDispatcherTests {
    static let now = Date(timeIntervalSince1970: 1_700_000_000)
    static let caller = CallerInfo(uri: "sip:bob@pbx.example", displayName: "Bob", user: "bob", domain: "pbx.example")

    func dispatcher(_ sender: (any PushSender)?) -> PushDispatcher {
        PushDispatcher(sender: sender, tupleResults: nil, incomingBadge: 0, missedBadge: 1, sound: "ring",
                       wakeWindow: 30)
    }

    @Test func anIncomingCallGoesToTheCallsPairWithMediaAndAnExpiry() throws {
        let target = PushTarget(tupleID: 7, provider: "acrobits", selector: "sel", callsAppID: "app.voip",
                                callsToken: "tok-voip", otherAppID: "app", otherToken: "tok-other")
        let message = try #require(dispatcher(nil).message(
            for: target, .incomingCall, pairingID: "pair-1", caller: Self.caller, media: "video", callee: "alice",
            callStartedAt: Self.now.addingTimeInterval(-2), at: Self.now))
        #expect(message == PushMessage(
            provider: "acrobits", event: .incomingCall, tupleID: 7, appID: "app.voip", deviceToken: "tok-voip",
            selector: "sel", pairingID: "pair-1", callerDisplayName: "Bob", callerUser: "bob",
            callerDomain: "pbx.example", media: "video", badge: 0, sound: "ring", sentAt: Self.now,
            expiresAt: Self.now.addingTimeInterval(30), callee: "alice", callerURI: "sip:bob@pbx.example",
            callStartedAt: Self.now.addingTimeInterval(-2), eventID: message.eventID))
    }

    @Test func anAppsOwnSoundReplacesTheSharedOne() throws {
        let target = PushTarget(tupleID: 7, provider: "apns", selector: "sel", callsAppID: "app.voip",
                                callsToken: "tok-voip", otherAppID: "app", otherToken: "tok-other")
        var pushes = dispatcher(nil)
        pushes.appSounds = ["app": "missed.caf", "app.voip": ""]
        func sound(_ event: PushEvent) -> String?? {
            pushes.message(for: target, event, pairingID: "pair-1", caller: Self.caller, media: "audio", callee: "alice",
                           callStartedAt: Self.now, at: Self.now).map(\.sound)
        }
        #expect(sound(.missed) == .some("missed.caf"))
        #expect(sound(.incomingCall) == .some(nil), "\"\" = none")
        pushes.appSounds = [:]
        #expect(sound(.missed) == .some("ring"))
    }

    @Test func aMissedCallGoesToTheOtherPairWithoutMedia() throws {
        let target = PushTarget(tupleID: 7, provider: "acrobits", selector: "sel", callsAppID: "app.voip",
                                callsToken: "tok-voip", otherAppID: "app", otherToken: "tok-other")
        let message = try #require(dispatcher(nil).message(
            for: target, .missed, pairingID: "pair-1", caller: Self.caller, media: "audio", callee: "alice",
            callStartedAt: Self.now, at: Self.now))
        #expect(message.appID == "app" && message.deviceToken == "tok-other")
        #expect(message.media == nil && message.badge == 1 && message.expiresAt == nil)
    }

    @Test func aTupleWithoutTokensGetsNoMessage() {
        let target = PushTarget(tupleID: 7, selector: "sel", callsAppID: nil, callsToken: nil,
                                otherAppID: nil, otherToken: nil)
        #expect(dispatcher(nil).message(for: target, .missed, pairingID: "p", caller: Self.caller, media: "audio",
                                        callee: "alice", callStartedAt: Self.now, at: Self.now) == nil)
    }

    @Test func withoutASenderThePushFailsAtOnce() {
        let failure = dispatcher(nil).send(nil) { _ in Issue.record("no completion expected") }
        #expect(failure == .failed(status: nil, detail: "push delivery is off"))
    }

    @Test func theSendersAnswerComesBackThroughTheCompletion() throws {
        let sender = KeptPushes(answer: .tokenGone(status: 410, detail: "gone"))
        let target = PushTarget(tupleID: 7, selector: "sel", callsAppID: "app", callsToken: "tok",
                                otherAppID: nil, otherToken: nil)
        let dispatcher = dispatcher(sender)
        let message = dispatcher.message(for: target, .incomingCall, pairingID: "p", caller: Self.caller,
                                         media: "audio", callee: "alice", callStartedAt: Self.now, at: Self.now)
        let answers = Mutex<[PushResult]>([])
        let failure = dispatcher.send(message) { result in answers.withLock { $0.append(result) } }
        #expect(failure == nil)
        #expect(sender.messages.map(\.deviceToken) == ["tok"])
        #expect(answers.withLock { $0 } == [.tokenGone(status: 410, detail: "gone")])
    }
}
