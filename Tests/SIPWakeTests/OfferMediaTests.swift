@testable import SIPWake
import Testing

/// The push says "video" when the caller's offer has a video stream.
@Suite struct OfferMediaTests {
    @Test func anMVideoLineMakesAVideoCall() {
        let audioVideo = "v=0\r\no=- 1 1 IN IP4 192.0.2.1\r\nm=audio 4000 RTP/AVP 0\r\nm=video 4002 RTP/AVP 96\r\n"
        #expect(CallProxy.media(ofSDP: audioVideo) == "video")
        #expect(CallProxy.media(ofSDP: "v=0\nM=VIDEO 4002 RTP/AVP 96") == "video")
        #expect(CallProxy.media(ofSDP: "m=video 0 RTP/AVP 96") == "video")
    }

    @Test func anythingElseIsAnAudioCall() {
        #expect(CallProxy.media(ofSDP: nil) == "audio")
        #expect(CallProxy.media(ofSDP: "") == "audio")
        #expect(CallProxy.media(ofSDP: "v=0\r\nm=audio 4000 RTP/AVP 0\r\na=label:m=video\r\n") == "audio")
        #expect(CallProxy.media(ofSDP: "v=0\r\nm=vide") == "audio")
    }
}
