import Foundation
import Ports
@testable import Push
import Testing

/// The answer's header lines as libcurl hands them over, one at a time with
/// their line end: read by name and value, trimmed, and only the final
/// answer's (after `100 Continue`) kept.
@Suite struct PushTransferHeaderTests {
    private func headers(_ lines: [String]) -> [PushHTTPHeader] {
        let transfer = PushTransfer(request: PushHTTPRequest(url: "https://127.0.0.1/"), errorBufferSize: 16) { _ in }
        for line in lines {
            Array(line.utf8).withUnsafeBytes { transfer.appendHeaderLine($0) }
        }
        return transfer.headers
    }

    @Test func namesAndValuesAreTrimmedOfSpacesTabsAndLineEnds() {
        #expect(headers(["HTTP/2 200\r\n", "apns-id:  77A1-B2 \r\n", "retry-after:\t30\r\n", "x-empty:\r\n",
                         " content-type : application/json; charset=utf-8\n", "\r\n"])
                == [PushHTTPHeader("apns-id", "77A1-B2"), PushHTTPHeader("retry-after", "30"),
                    PushHTTPHeader("x-empty", ""), PushHTTPHeader("content-type", "application/json; charset=utf-8")])
    }

    @Test func linesWithoutANameOrAColonAreDropped() {
        #expect(headers(["HTTP/1.1 200 OK\r\n", ": no name\r\n", "no colon\r\n", "  :\r\n", "ok: 1\r\n"])
                == [PushHTTPHeader("ok", "1")])
    }

    @Test func aStatusLineStartsTheHeadersAfresh() {
        #expect(headers(["HTTP/1.1 100 Continue\r\n", "x-interim: yes\r\n", "\r\n",
                         "HTTP/1.1 429 Too Many Requests\r\n", "Retry-After: 120\r\n", "\r\n"])
                == [PushHTTPHeader("Retry-After", "120")])
    }

    @Test func valuesKeepTheirInnerSpacesAndUTF8() {
        #expect(headers(["x-reason:  Bad  Device Token ✓ \r\n"]) == [PushHTTPHeader("x-reason", "Bad  Device Token ✓")])
    }
}
