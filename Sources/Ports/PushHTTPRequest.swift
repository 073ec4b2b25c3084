import Foundation

/// What a push provider wants sent for one push: an HTTP request.
public struct PushHTTPRequest: Sendable, Equatable {
    public var url: String
    public var method: String
    /// Header lines in order, as name and value.
    public var headers: [PushHTTPHeader]
    public var body: Data
    /// Longest time this request may take, in seconds; nil takes the push
    /// client's timeout (`[push] timeout`). A customer's webhook has its own.
    public var timeout: Double?

    public init(url: String, method: String = "POST", headers: [PushHTTPHeader] = [], body: Data = Data(),
                timeout: Double? = nil) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}
