import Logging
import Ports
import PostgresNIO

/// The versioned schema of the sipwake database on PostgreSQL.
///
/// MIGRATION POLICY, as for SQLite: this list is APPEND-ONLY. A migration
/// that has shipped is never edited, renamed, reordered or removed: databases
/// in the field have recorded its identifier in `schema_migrations` and will
/// not run it again. Each migration runs in its own transaction, holding a
/// transaction-level advisory lock, so two nodes starting together apply it
/// once: the second waits, then finds it recorded and skips it. A failed
/// migration leaves the database as it was.
///
/// The tables hold what the SQLite schema holds after its v6, with the same
/// names and rules; times are unix seconds (`double precision`), and text
/// that lists sort on compares bytewise (`COLLATE "C"`), as in SQLite.
enum PostgreSQLMigrations {
    static let v1 = "v1-users-bindings-tuples-calls"
    static let v2 = "v2-feeds"
    static let v3 = "v3-binding-events"
    static let v4 = "v4-change-notifications"
    static let v5 = "v5-call-record-nodes"
    /// Binding events kept for nodes that read late (a few minutes of a busy
    /// node's REGISTERs); a node further behind is told it missed some.
    static let bindingEventsKept = 100_000
    /// How many changes the tuple feed keeps; a reader further behind reads every tuple again.
    static let tupleChangesKept = 10_000
    /// How many binding deletions the deletion feed keeps.
    static let bindingDeletionsKept = 10_000
    /// The advisory lock every migration transaction takes (any constant
    /// that no other application on the same database uses).
    static let lockKey: Int64 = 0x5150_7761_6b65   // "SIPwake"

    static let all: [(id: String, statements: [String])] = [
        (v1, [
            // Users: HA1 values only, never a password; usernames lower-cased.
            """
            CREATE TABLE users (
                username    TEXT COLLATE "C" PRIMARY KEY CHECK (username <> '' AND username = lower(username)),
                realm       TEXT NOT NULL,
                ha1_md5     TEXT NOT NULL,
                ha1_sha256  TEXT NOT NULL,
                wakeup_hold BOOLEAN NOT NULL DEFAULT TRUE,
                created_at  DOUBLE PRECISION NOT NULL,
                updated_at  DOUBLE PRECISION NOT NULL
            )
            """,
            // Small counters shared by every node: `users_version`.
            "CREATE TABLE meta (key TEXT PRIMARY KEY, value BIGINT NOT NULL)",
            "INSERT INTO meta (key, value) VALUES ('users_version', 0)",
            // Bindings: no foreign key to users (a lab without authentication
            // registers any AOR). `path` is a JSON array of strings.
            """
            CREATE TABLE bindings (
                id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                aor           TEXT COLLATE "C" NOT NULL CHECK (aor <> ''),
                binding_key   TEXT NOT NULL CHECK (binding_key <> ''),
                contact       TEXT NOT NULL,
                instance_id   TEXT,
                reg_id        BIGINT,
                call_id       TEXT NOT NULL,
                cseq          BIGINT NOT NULL CHECK (cseq BETWEEN 0 AND 4294967295),
                q             BIGINT CHECK (q IS NULL OR q BETWEEN 0 AND 1000),
                expires_at    DOUBLE PRECISION NOT NULL,
                path          TEXT NOT NULL DEFAULT '[]' CHECK (json_typeof(path::json) = 'array'),
                transport     TEXT NOT NULL,
                source_host   TEXT NOT NULL,
                source_port   BIGINT NOT NULL CHECK (source_port BETWEEN 0 AND 65535),
                user_agent    TEXT,
                registered_at DOUBLE PRECISION NOT NULL,
                updated_at    DOUBLE PRECISION NOT NULL,
                UNIQUE (aor, binding_key)
            )
            """,
            "CREATE INDEX bindings_aor ON bindings (aor, updated_at)",
            "CREATE INDEX bindings_expires_at ON bindings (expires_at)",
            // Device tuples: two token pairs, each all or nothing, at least one.
            """
            CREATE TABLE device_tuples (
                id               BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                username         TEXT COLLATE "C" NOT NULL REFERENCES users (username) ON DELETE CASCADE,
                selector         TEXT NOT NULL CHECK (selector <> ''),
                app_id_calls     TEXT CHECK (app_id_calls IS NULL OR app_id_calls <> ''),
                token_calls      TEXT CHECK (token_calls IS NULL OR token_calls <> ''),
                app_id_other     TEXT CHECK (app_id_other IS NULL OR app_id_other <> ''),
                token_other      TEXT CHECK (token_other IS NULL OR token_other <> ''),
                platform         TEXT CHECK (platform IS NULL OR platform IN ('ios', 'android')),
                provider         TEXT NOT NULL DEFAULT 'acrobits' CHECK (provider ~ '^[a-z0-9-]{1,32}$'),
                created_at       DOUBLE PRECISION NOT NULL,
                last_seen_at     DOUBLE PRECISION NOT NULL,
                last_push_at     DOUBLE PRECISION,
                last_push_status BIGINT,
                last_push_result TEXT,
                UNIQUE (username, selector),
                CHECK ((app_id_calls IS NULL) = (token_calls IS NULL)),
                CHECK ((app_id_other IS NULL) = (token_other IS NULL)),
                CHECK (token_calls IS NOT NULL OR token_other IS NOT NULL)
            )
            """,
            "CREATE INDEX device_tuples_username ON device_tuples (username, id)",
            "CREATE INDEX device_tuples_token_calls ON device_tuples (token_calls)",
            "CREATE INDEX device_tuples_token_other ON device_tuples (token_other)",
            "CREATE INDEX device_tuples_last_seen_at ON device_tuples (last_seen_at)",
            // One row per incoming call: the whole record as JSON, and the
            // fields lists filter and sort on.
            """
            CREATE TABLE call_records (
                id           TEXT COLLATE "C" PRIMARY KEY CHECK (id <> ''),
                pairing_id   TEXT NOT NULL,
                call_id      TEXT NOT NULL,
                callee       TEXT COLLATE "C" NOT NULL,
                caller       TEXT NOT NULL,
                started_at   DOUBLE PRECISION NOT NULL,
                ended_at     DOUBLE PRECISION,
                outcome      TEXT,
                final_status BIGINT,
                record       TEXT NOT NULL
            )
            """,
            "CREATE INDEX call_records_callee ON call_records (callee, started_at)",
            "CREATE INDEX call_records_pairing_id ON call_records (pairing_id)",
            "CREATE INDEX call_records_call_id ON call_records (call_id)",
            "CREATE INDEX call_records_started_at ON call_records (started_at)",
        ]),
        (v2, [
            // The heads of the two feeds. A writer takes the next number by
            // updating its row, which holds the row's lock until it commits:
            // writers number their entries one after the other, in commit
            // order, and a rolled-back transaction gives its number back.
            // So a feed has no gaps, and a reader that saw entry N has seen
            // every entry before it (which a sequence would not promise).
            "CREATE TABLE feed_heads (feed TEXT PRIMARY KEY, seq BIGINT NOT NULL)",
            "INSERT INTO feed_heads (feed, seq) VALUES ('device_tuple_changes', 0), ('binding_deletions', 0)",
            // Whose tuples changed, written by triggers so every writer (a
            // node, the CLI, a user removed with her tuples) is seen. An
            // update is a change only when a column a push reads changes.
            """
            CREATE TABLE device_tuple_changes (
                seq      BIGINT PRIMARY KEY,
                username TEXT NOT NULL
            )
            """,
            """
            CREATE FUNCTION sipwake_tuple_change(changed_username TEXT) RETURNS void LANGUAGE plpgsql AS $$
            DECLARE
                next_seq BIGINT;
            BEGIN
                UPDATE feed_heads SET seq = seq + 1 WHERE feed = 'device_tuple_changes' RETURNING seq INTO next_seq;
                INSERT INTO device_tuple_changes (seq, username) VALUES (next_seq, changed_username);
                DELETE FROM device_tuple_changes WHERE seq <= next_seq - \(tupleChangesKept);
            END
            $$
            """,
            """
            CREATE FUNCTION sipwake_tuples_changed() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP = 'INSERT' THEN
                    PERFORM sipwake_tuple_change(NEW.username);
                ELSIF TG_OP = 'DELETE' THEN
                    PERFORM sipwake_tuple_change(OLD.username);
                ELSIF (OLD.username, OLD.selector, OLD.app_id_calls, OLD.token_calls, OLD.app_id_other,
                       OLD.token_other, OLD.platform, OLD.provider)
                      IS DISTINCT FROM
                      (NEW.username, NEW.selector, NEW.app_id_calls, NEW.token_calls, NEW.app_id_other,
                       NEW.token_other, NEW.platform, NEW.provider) THEN
                    PERFORM sipwake_tuple_change(OLD.username);
                    IF NEW.username <> OLD.username THEN
                        PERFORM sipwake_tuple_change(NEW.username);
                    END IF;
                END IF;
                RETURN NULL;
            END
            $$
            """,
            """
            CREATE TRIGGER device_tuples_changed AFTER INSERT OR UPDATE OR DELETE ON device_tuples
                FOR EACH ROW EXECUTE FUNCTION sipwake_tuples_changed()
            """,
            // Bindings the operator deleted, in commit order, written by the
            // store in the transaction that deletes them; the nodes read it
            // to drop them from memory.
            """
            CREATE TABLE binding_deletions (
                seq         BIGINT PRIMARY KEY,
                aor         TEXT NOT NULL,
                contact     TEXT NOT NULL,
                instance_id TEXT,
                reg_id      BIGINT,
                updated_at  DOUBLE PRECISION NOT NULL
            )
            """,
        ]),
        (v3, [
            // Every binding change a node commits, for the other nodes
            // (`PostgreSQLBindingEventFeed`): numbered through `feed_heads`
            // like the other feeds, and announced with NOTIFY at commit.
            """
            CREATE TABLE binding_events (
                seq     BIGINT PRIMARY KEY,
                node    TEXT NOT NULL,
                kind    TEXT NOT NULL,
                binding TEXT NOT NULL
            )
            """,
            "INSERT INTO feed_heads (feed, seq) VALUES ('binding_events', 0)",
        ]),
        (v4, [
            // A tuple change also announces itself (`PostgreSQLStoreNotifications`),
            // so every node's tuple index reads it at once, whoever wrote it.
            // PostgreSQL sends one notification per transaction however many
            // tuples changed in it.
            """
            CREATE OR REPLACE FUNCTION sipwake_tuple_change(changed_username TEXT) RETURNS void LANGUAGE plpgsql AS $$
            DECLARE
                next_seq BIGINT;
            BEGIN
                UPDATE feed_heads SET seq = seq + 1 WHERE feed = 'device_tuple_changes' RETURNING seq INTO next_seq;
                INSERT INTO device_tuple_changes (seq, username) VALUES (next_seq, changed_username);
                DELETE FROM device_tuple_changes WHERE seq <= next_seq - \(tupleChangesKept);
                PERFORM pg_notify('\(PostgreSQLStoreNotifications.channel)', '\(StoreChange.tuples.rawValue)');
            END
            $$
            """,
        ]),
        (v5, [
            // The node that holds a call (`PostgreSQLDatabase.node`), so a
            // node cleaning up open records closes only those of stopped
            // nodes. Records saved before have none and count as stopped.
            "ALTER TABLE call_records ADD COLUMN node TEXT",
        ]),
        // Append new migrations here, never above.
    ]

    /// Applies what is missing; returns the last applied identifier.
    static func migrate(_ connections: PostgreSQLConnections, logger: Logger) throws -> String {
        try connections.withConnection { connection in
            let session = PostgreSQLSession(connection: connection, connections: connections, logger: logger)
            try session.transaction {
                try session.execute("SELECT pg_advisory_xact_lock(\(lockKey))")
                try session.execute("""
                    CREATE TABLE IF NOT EXISTS schema_migrations (
                        id         TEXT PRIMARY KEY,
                        applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
                    )
                    """)
            }
            for migration in all {
                try session.transaction {
                    try session.execute("SELECT pg_advisory_xact_lock(\(lockKey))")
                    let done = try session.value(
                        "SELECT 1 FROM schema_migrations WHERE id = \(migration.id)", as: Int32.self) != nil
                    guard !done else { return }
                    for statement in migration.statements {
                        try session.execute(PostgresQuery(unsafeSQL: statement))
                    }
                    try session.execute("INSERT INTO schema_migrations (id) VALUES (\(migration.id))")
                    logger.info("database migrated", metadata: ["database.migration": "\(migration.id)"])
                }
            }
            return all[all.count - 1].id
        }
    }
}
