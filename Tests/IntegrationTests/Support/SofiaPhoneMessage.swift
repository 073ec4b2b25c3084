/// A MESSAGE request the phone received (and answered 200), copied out of Sofia.
struct SofiaPhoneMessage: Sendable {
    let requestURI: String
    let contentType: String?
    let body: String?
    /// Every header of the MESSAGE (`headers["X-Push-ID"]`, ...).
    let headers: SofiaPhoneHeaders
    let text: String

    /// The first value of a header, by case-insensitive name.
    func header(_ name: String) -> String? { headers.first(name) }
}
