import SIPCore

/// A final response to a REGISTER, kept as what it takes to send the same
/// response again to a retransmission of the request: the status line and
/// the headers sipwake added. Sofia copies the rest (Via, From, To, Call-ID,
/// CSeq) from the request, which a retransmission repeats, and the To tag
/// comes from the transaction's name, so the response it builds is the
/// same, byte for byte.
struct RegisterAnswer {
    let status: Int
    let phrase: String
    /// The headers sipwake added, in order (Contact, Path, Date...).
    let headers: [(name: String, value: String)]

    init(status: Int, phrase: String, headers: [(name: String, value: String)] = []) {
        self.status = status
        self.phrase = phrase
        self.headers = headers
    }

    /// Sends it, statelessly, to `request`: the REGISTER, or a retransmission of it.
    func send(to request: IncomingRequest, id: RegisterTransactionID) {
        request.replyStateless(status, phrase, tags: tags(for: request.message, id: id))
    }

    /// The response's headers for Sofia: a To with the transaction's tag
    /// when the request's To has none, and sipwake's own.
    func tags(for message: SIPMessage, id: RegisterTransactionID) -> SofiaTagList {
        let tags = SofiaTagList()
        if message.toTag == nil, let to = message.toValue { tags.to("\(to);tag=\(id.toTag)") }
        for (name, value) in headers {
            if name == "Contact" { tags.contact(value) } else { tags.header(name, value) }
        }
        return tags
    }

    /// Roughly what keeping it costs, in bytes: its text and a fixed share
    /// for the structures that hold it.
    var size: Int { headers.reduce(phrase.utf8.count + 128) { $0 + $1.name.utf8.count + $1.value.utf8.count + 32 } }
}
