import Model
import Ports

/// The details the direct providers put in results: short, from the
/// provider's own error words or the transport's message, never a credential.
enum PushAnswerDetail {
    /// Longest detail kept.
    static let maxLength = 200

    static func truncated(_ text: String) -> String {
        text.count <= maxLength ? text : String(text.prefix(maxLength))
    }

    /// The bearer credential a request carried (`authorization: bearer …`); nil when none.
    static func bearer(of request: PushHTTPRequest) -> String? {
        guard let value = request.headers.first(where: { $0.name.lowercased() == "authorization" })?.value else {
            return nil
        }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return String(parts[1])
    }

    /// A transfer that got no HTTP answer: timeouts and network errors are
    /// worth retrying; a bad URL, protocol or certificate is not.
    static func transportResult(_ failure: PushTransportFailure) -> PushResult {
        switch failure.reason {
        case .timeout: return .retryable(status: nil, detail: truncated("timeout: " + failure.message))
        case .network: return .retryable(status: nil, detail: truncated(failure.message))
        case .setup: return .failed(status: nil, detail: truncated(failure.message))
        }
    }
}
