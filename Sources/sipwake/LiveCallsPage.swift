/// The admin API's answer to `GET /admin/v1/live-calls`.
struct LiveCallsPage: Decodable {
    let items: [LiveCallJSON]
}
