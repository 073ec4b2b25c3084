import GRDB

/// The versioned schema of the sipwake database.
///
/// MIGRATION POLICY: this list is APPEND-ONLY. A migration that has shipped is
/// never edited, renamed, reordered or removed: databases in the field have
/// recorded its identifier in `grdb_migrations` and will not run it again, so
/// editing it would leave old and new installs with different schemas. To
/// change the schema, register a new migration at the end with the next
/// identifier ("v2-device-tuples", "v3-call-records", ...). Each migration runs
/// in its own transaction: a failed migration leaves the file as it was.
enum StorageMigrations {
    /// Identifier of the first schema: users, bindings, meta.
    static let v1 = "v1-users-bindings"
    /// Identifier of the second schema: device tuples reported by the apps.
    static let v2 = "v2-device-tuples"
    /// Identifier of the third schema: the story of each incoming call.
    static let v3 = "v3-call-records"
    /// Identifier of the fourth schema: the push provider of each device tuple.
    static let v4 = "v4-tuple-provider"
    /// Identifier of the fifth schema: the feed of device-tuple changes.
    static let v5 = "v5-tuple-changes"
    /// How many changes the feed keeps; a reader further behind reads every tuple again.
    static let tupleChangesKept = 10_000
    /// Identifier of the sixth schema: the feed of bindings deleted by the operator.
    static let v6 = "v6-binding-deletions"
    /// How many binding deletions the feed keeps.
    static let bindingDeletionsKept = 10_000

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration(v1) { db in
            // Users: HA1 values only, never a password. Usernames are stored
            // lower-cased (the registrar lower-cases AORs the same way).
            try db.execute(sql: """
                CREATE TABLE users (
                    username    TEXT PRIMARY KEY NOT NULL
                                CHECK (username <> '' AND username = lower(username)),
                    realm       TEXT NOT NULL,
                    ha1_md5     TEXT NOT NULL,
                    ha1_sha256  TEXT NOT NULL,
                    wakeup_hold INTEGER NOT NULL DEFAULT 1 CHECK (wakeup_hold IN (0, 1)),
                    created_at  REAL NOT NULL,
                    updated_at  REAL NOT NULL
                )
                """)
            // Bindings: deliberately no foreign key to users. With
            // authentication disabled (a lab) any AOR may register.
            // Times are unix seconds (REAL). `path` is a JSON array of strings.
            // No CHECK on `transport`: a later transport (ws, wss) must not
            // need a table rebuild; unknown values fail loudly on load instead.
            try db.execute(sql: """
                CREATE TABLE bindings (
                    id            INTEGER PRIMARY KEY,
                    aor           TEXT NOT NULL CHECK (aor <> ''),
                    binding_key   TEXT NOT NULL CHECK (binding_key <> ''),
                    contact       TEXT NOT NULL,
                    instance_id   TEXT,
                    reg_id        INTEGER,
                    call_id       TEXT NOT NULL,
                    cseq          INTEGER NOT NULL CHECK (cseq BETWEEN 0 AND 4294967295),
                    q             INTEGER CHECK (q IS NULL OR q BETWEEN 0 AND 1000),
                    expires_at    REAL NOT NULL,
                    path          TEXT NOT NULL DEFAULT '[]'
                                  CHECK (json_valid(path) AND json_type(path) = 'array'),
                    transport     TEXT NOT NULL,
                    source_host   TEXT NOT NULL,
                    source_port   INTEGER NOT NULL CHECK (source_port BETWEEN 0 AND 65535),
                    user_agent    TEXT,
                    registered_at REAL NOT NULL,
                    updated_at    REAL NOT NULL,
                    UNIQUE (aor, binding_key)
                )
                """)
            // Lookup by AOR: (aor, updated_at) serves both `WHERE aor = ?` and the
            // `registrations list` order without a sort step.
            try db.execute(sql: "CREATE INDEX bindings_aor ON bindings(aor, updated_at)")
            // Expiry sweeps: `WHERE expires_at <= ?`.
            try db.execute(sql: "CREATE INDEX bindings_expires_at ON bindings(expires_at)")
            // Small counters shared by every process using the file.
            try db.execute(sql: """
                CREATE TABLE meta (
                    key   TEXT PRIMARY KEY NOT NULL,
                    value INTEGER NOT NULL
                )
                """)
            try db.execute(sql: "INSERT INTO meta (key, value) VALUES ('users_version', 0)")
        }
        migrator.registerMigration(v2) { db in
            // Device tuples (AppId, DeviceToken, Selector), two token pairs:
            // "calls" (VoIP pushes, NotifyIncomingCall) and "other" (missed,
            // answered elsewhere). A pair is all or nothing, and a row holds at
            // least one complete pair. Removing a user removes its tuples
            // (foreign keys are on for every connection).
            try db.execute(sql: """
                CREATE TABLE device_tuples (
                    id               INTEGER PRIMARY KEY,
                    username         TEXT NOT NULL REFERENCES users(username) ON DELETE CASCADE,
                    selector         TEXT NOT NULL CHECK (selector <> ''),
                    app_id_calls     TEXT CHECK (app_id_calls IS NULL OR app_id_calls <> ''),
                    token_calls      TEXT CHECK (token_calls IS NULL OR token_calls <> ''),
                    app_id_other     TEXT CHECK (app_id_other IS NULL OR app_id_other <> ''),
                    token_other      TEXT CHECK (token_other IS NULL OR token_other <> ''),
                    platform         TEXT CHECK (platform IS NULL OR platform IN ('ios', 'android')),
                    created_at       REAL NOT NULL,
                    last_seen_at     REAL NOT NULL,
                    last_push_at     REAL,
                    last_push_status INTEGER,
                    last_push_result TEXT,
                    UNIQUE (username, selector),
                    CHECK ((app_id_calls IS NULL) = (token_calls IS NULL)),
                    CHECK ((app_id_other IS NULL) = (token_other IS NULL)),
                    CHECK (token_calls IS NOT NULL OR token_other IS NOT NULL)
                )
                """)
            // UNIQUE(username, selector) already serves `WHERE username = ?`;
            // this one serves the list order (`ORDER BY id`) per user without a sort.
            try db.execute(sql: "CREATE INDEX device_tuples_username ON device_tuples(username, id)")
            // The move rule finds the rows that hold a reported token.
            try db.execute(sql: "CREATE INDEX device_tuples_token_calls ON device_tuples(token_calls)")
            try db.execute(sql: "CREATE INDEX device_tuples_token_other ON device_tuples(token_other)")
            // Purge of stale tuples: `WHERE last_seen_at < ?`.
            try db.execute(sql: "CREATE INDEX device_tuples_last_seen_at ON device_tuples(last_seen_at)")
        }
        migrator.registerMigration(v3) { db in
            // One row per incoming call: the whole `CallRecord` as JSON in
            // `record`, and copies of the fields that lists filter and sort
            // on. No foreign key to users: the record of a call outlives the
            // callee's account (and a call to an unknown user is recorded too).
            // Times are unix seconds (REAL).
            try db.execute(sql: """
                CREATE TABLE call_records (
                    id           TEXT PRIMARY KEY NOT NULL CHECK (id <> ''),
                    pairing_id   TEXT NOT NULL,
                    call_id      TEXT NOT NULL,
                    callee       TEXT NOT NULL,
                    caller       TEXT NOT NULL,
                    started_at   REAL NOT NULL,
                    ended_at     REAL,
                    outcome      TEXT,
                    final_status INTEGER,
                    record       TEXT NOT NULL CHECK (json_valid(record))
                )
                """)
            // `calls list --user`: filter and newest-first order without a sort.
            try db.execute(sql: "CREATE INDEX call_records_callee ON call_records(callee, started_at)")
            // `calls show` by pairing id or Call-ID.
            try db.execute(sql: "CREATE INDEX call_records_pairing_id ON call_records(pairing_id)")
            try db.execute(sql: "CREATE INDEX call_records_call_id ON call_records(call_id)")
            // Newest-first lists of every call, and retention purges (`WHERE started_at < ?`).
            try db.execute(sql: "CREATE INDEX call_records_started_at ON call_records(started_at)")
        }
        migrator.registerMigration(v4) { db in
            // Which push service reaches the device. Tuples stored before
            // there was a choice were all pushed through the Acrobits gateway.
            try db.execute(sql: """
                ALTER TABLE device_tuples ADD COLUMN provider TEXT NOT NULL DEFAULT 'acrobits'
                    CHECK (length(provider) BETWEEN 1 AND 32 AND provider NOT GLOB '*[^a-z0-9-]*')
                """)
        }
        migrator.registerMigration(v5) { db in
            // Whose tuples changed, in commit order, written by triggers so
            // that every writer (the server, the CLI, a user removed with
            // its tuples by the foreign key) is seen. An update is a change
            // only when a column a push reads takes another value: an app
            // reporting the same tokens at every start is not one. A later
            // migration that rebuilds `device_tuples` must create these
            // triggers again. The server keeps the
            // tuples in memory for the call path and reads this feed to stay
            // current. Only the latest changes are kept: a reader further
            // behind sees the gap and reads every tuple again.
            try db.execute(sql: """
                CREATE TABLE device_tuple_changes (
                    seq      INTEGER PRIMARY KEY AUTOINCREMENT,
                    username TEXT NOT NULL
                )
                """)
            let prune = """
                DELETE FROM device_tuple_changes
                WHERE seq <= (SELECT max(seq) FROM device_tuple_changes) - \(tupleChangesKept);
                """
            try db.execute(sql: """
                CREATE TRIGGER device_tuples_inserted AFTER INSERT ON device_tuples BEGIN
                    INSERT INTO device_tuple_changes (username) VALUES (new.username);
                    \(prune)
                END;
                CREATE TRIGGER device_tuples_deleted AFTER DELETE ON device_tuples BEGIN
                    INSERT INTO device_tuple_changes (username) VALUES (old.username);
                    \(prune)
                END;
                CREATE TRIGGER device_tuples_updated
                AFTER UPDATE OF username, selector, app_id_calls, token_calls, app_id_other, token_other,
                                platform, provider ON device_tuples
                WHEN old.username IS NOT new.username OR old.selector IS NOT new.selector
                    OR old.app_id_calls IS NOT new.app_id_calls OR old.token_calls IS NOT new.token_calls
                    OR old.app_id_other IS NOT new.app_id_other OR old.token_other IS NOT new.token_other
                    OR old.platform IS NOT new.platform OR old.provider IS NOT new.provider
                BEGIN
                    INSERT INTO device_tuple_changes (username) VALUES (old.username);
                    INSERT INTO device_tuple_changes (username)
                        SELECT new.username WHERE new.username <> old.username;
                    \(prune)
                END;
                """)
        }
        migrator.registerMigration(v6) { db in
            // Bindings the operator deleted (`registrations delete`, the
            // admin API, `users remove`), in commit order, written by the
            // store in the transaction that deletes them. The running server
            // holds its bindings in memory and reads this feed to drop them.
            // Each row names the binding (its key's parts) and the
            // `updated_at` of the version deleted: a binding the device
            // refreshed after the delete is newer and stays. The server's own
            // writes (REGISTER, expiry) never go here. Only the latest
            // deletions are kept.
            try db.execute(sql: """
                CREATE TABLE binding_deletions (
                    seq         INTEGER PRIMARY KEY AUTOINCREMENT,
                    aor         TEXT NOT NULL,
                    contact     TEXT NOT NULL,
                    instance_id TEXT,
                    reg_id      INTEGER,
                    updated_at  REAL NOT NULL
                )
                """)
        }
        // Append new migrations here, never above.
        return migrator
    }
}
