import Foundation
import Logging
import PostgreSQLStorage
import TestSupport
import XCTest

/// sipwake on PostgreSQL (`[database] url`) as an operator runs it: the
/// CLI adds users, a Sofia phone registers, the binding is a row in
/// PostgreSQL, a restarted server reloads it; and a PostgreSQL that goes
/// away fails REGISTERs cleanly until it is back.
final class PostgreSQLIntegrationTests: IntegrationTestCase {
    /// A server on a fresh database of the test cluster; alice and bob are
    /// added with `sipwake users add` against the same URL.
    private func startServerOnPostgreSQL() async throws -> (SipwakeProcess, PostgreSQLTestCluster, String) {
        let cluster = try PostgreSQLTestCluster.shared()
        let name = try cluster.makeDatabase()
        let server = try await startServer(config: "[database]\nurl = \"\(cluster.url(database: name))\"")
        return (server, cluster, name)
    }

    /// The database's bindings, read with the adapter itself.
    private func storedBindings(_ cluster: PostgreSQLTestCluster, _ name: String) throws -> [String] {
        let database = try PostgreSQLDatabase(
            location: PostgreSQLLocation(host: cluster.host, port: cluster.port, username: PostgreSQLTestCluster.username,
                                         password: PostgreSQLTestCluster.password, database: name),
            logger: Logger(label: "test"))
        defer { database.close() }
        return try PostgreSQLBindingStore(database: database).loadAll().map(\.contact)
    }

    func testARegistrationIsStoredInPostgreSQLAndReloadedAfterARestart() async throws {
        let (server, cluster, name) = try await startServerOnPostgreSQL()
        XCTAssertTrue(server.log.contains("database.postgresql=127.0.0.1:\(cluster.port)/\(name)"), server.log)
        XCTAssertFalse(server.log.contains(PostgreSQLTestCluster.password), "the password is never logged")
        let ua = try await makeUA(server)
        let ok = await ua.register(user: "alice", password: "alice-secret", contacts: ["<sip:alice@10.0.0.1>"],
                                   expires: 600)
        XCTAssertEqual(ok.status, 200)
        XCTAssertEqual(try storedBindings(cluster, name), ["sip:alice@10.0.0.1"], "committed before the 200 OK")
        XCTAssertEqual(try server.registrations(user: "alice").count, 1, "registrations list reads PostgreSQL")

        let status = await server.stop()
        XCTAssertEqual(status, 0)
        try await server.start()
        XCTAssertTrue(server.log.contains("bindings.count=1 sip.listen="), "the binding is reloaded at start")
        let ua2 = try await makeUA(server)
        let query = await ua2.register(user: "alice", password: "alice-secret", contacts: [])
        XCTAssertEqual(query.contacts.compactMap { $0.uri?.host }, ["10.0.0.1"], "the restarted server knows it")

        let users = try server.cli(["users", "list"])
        XCTAssertEqual(users.status, 0)
        XCTAssertTrue(users.stdout.contains("alice") && users.stdout.contains("bob"), users.stdout)
    }

    func testABadURLOrAnUnreachableServerIsAClearErrorWithoutThePassword() throws {
        let server = try SipwakeProcess(config: "[database]\nurl = \"postgres://sipwake:hunter2-pw@127.0.0.1:1/none\"")
        let result = try server.cli(["users", "list"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("cannot open database postgresql 127.0.0.1:1/none"), result.stderr)
        XCTAssertFalse(result.stderr.contains("hunter2-pw"), result.stderr)
    }

    /// PostgreSQL stops (a restart, a failover): REGISTERs get a 5xx and the
    /// server keeps running; once it is back they succeed again. (XCTest runs
    /// one test at a time, so stopping the shared cluster disturbs no other.)
    func testPostgreSQLGoingAwayFailsRegistersCleanlyUntilItIsBack() async throws {
        let cluster = try PostgreSQLTestCluster.shared()
        let name = try cluster.makeDatabase()
        let server = try await startServer(config: "[database]\nurl = \"\(cluster.url(database: name))\"")
        let ua = try await makeUA(server)
        let before = await ua.register(user: "alice", password: "alice-secret", contacts: ["<sip:alice@10.0.0.1>"])
        XCTAssertEqual(before.status, 200)

        try cluster.stop()
        let during = await ua.register(user: "bob", password: "bob-secret", contacts: ["<sip:bob@10.0.0.2>"])
        // The binding event reader fails too, says so, and goes on.
        for _ in 0..<250 where !server.log.contains("binding events not read") {
            try await Task.sleep(for: .milliseconds(20))
        }
        XCTAssertTrue(server.log.contains("binding events not read"), server.log)
        for _ in 0..<250 where !server.log.contains("store notifications lost") {
            try await Task.sleep(for: .milliseconds(20))
        }
        XCTAssertTrue(server.log.contains("store notifications lost"), "the lost LISTEN is reported")
        try cluster.start()
        XCTAssertTrue((500...599).contains(during.status), "\(during.status)")
        XCTAssertNotNil(server.pid, "the server is still running")
        XCTAssertTrue(server.log.contains("Binding write failed and was rolled back"), server.log)
        XCTAssertFalse(server.log.contains(PostgreSQLTestCluster.password))

        let after = await ua.register(user: "bob", password: "bob-secret", contacts: ["<sip:bob@10.0.0.2>"])
        XCTAssertEqual(after.status, 200, "reconnected")
        XCTAssertEqual(Set(try storedBindings(cluster, name)), ["sip:alice@10.0.0.1", "sip:bob@10.0.0.2"])

        // The events flow again: a binding another node commits now reaches this one.
        let other = try await startServer(config: "[database]\nurl = \"\(cluster.url(database: name))\"", users: false)
        let otherUA = try await makeUA(other)
        let elsewhere = await otherUA.register(user: "alice", password: "alice-secret", contacts: ["<sip:alice@10.0.0.3>"])
        XCTAssertEqual(elsewhere.status, 200)
        var held: [String] = []
        for _ in 0..<150 where held.count < 2 {
            held = await ua.register(user: "alice", password: "alice-secret", contacts: []).contacts.compactMap { $0.uri?.host }
            if held.count < 2 { try await Task.sleep(for: .milliseconds(20)) }
        }
        XCTAssertEqual(Set(held), ["10.0.0.1", "10.0.0.3"], "the first node learns the other node's binding")
    }

    /// `kill -9` of a node while REGISTERs stream in from four phones at
    /// once: every REGISTER that got its 200 OK is in PostgreSQL.
    func testAKilledNodeLosesNoAcknowledgedBinding() async throws {
        let cluster = try PostgreSQLTestCluster.shared()
        let name = try cluster.makeDatabase()
        let server = try await startServer(config: """
            [database]
            url = "\(cluster.url(database: name))"
            [registrar]
            max_bindings_per_aor = 1000
            """)
        var phones: [SofiaTestUA] = []
        for _ in 0..<4 { phones.append(try await makeUA(server)) }
        let pid = try XCTUnwrap(server.pid)
        let killer = Task {
            try await Task.sleep(for: .milliseconds(400))
            kill(pid, SIGKILL)
        }
        let acknowledged = await withTaskGroup(of: [String].self) { group in
            for (index, phone) in phones.enumerated() {
                group.addTask {
                    var mine: [String] = []
                    for n in 0..<200 {
                        let contact = "sip:alice@10.\(index).\(n / 250).\(n % 250)"
                        let answer = await phone.register(user: "alice", password: "alice-secret",
                                                          contacts: ["<\(contact)>"], expires: 600)
                        guard answer.status == 200 else { break }
                        mine.append(contact)
                    }
                    return mine
                }
            }
            var all: [String] = []
            for await mine in group { all += mine }
            return all
        }
        try await killer.value
        let status = await server.stop()
        XCTAssertEqual(status, SIGKILL, "the node was killed, not stopped")
        XCTAssertGreaterThan(acknowledged.count, 0)
        let stored = Set(try storedBindings(cluster, name))
        let lost = acknowledged.filter { !stored.contains($0) }
        XCTAssertEqual(lost, [], "\(lost.count) of \(acknowledged.count) acknowledged bindings lost")
    }
}
