import Foundation
import GRDB
import Logging
import QuireCore
import QuireProtocol
import ServiceLifecycle

/// The embedded store: one SQLite file in WAL mode, for a server on one machine.
///
/// SQLite has a single writer, so pushes are serialized and sequence order is commit order
/// without further locking; reads run in parallel on snapshot transactions.
final class SQLiteStore: SyncStore {
    let pool: DatabasePool
    let path: String
    /// Held while the store is open, so `restore` can tell the database is in use.
    private let lock: DatabaseLock

    var services: [any Service] { [] }

    /// How long a write waits for the database's lock unless told otherwise.
    static let defaultBusyTimeout: TimeInterval = 10

    /// Opens (or creates) the database file at `path`; a write waits up to `busyTimeout`
    /// seconds for the database's lock.
    init(path: String, busyTimeout: TimeInterval = SQLiteStore.defaultBusyTimeout) throws {
        self.path = path
        lock = try DatabaseLock(database: path, exclusive: false)
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        configuration.maximumReaderCount = 8
        // Purged tombstones and removed users leave no readable trace in free pages.
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA secure_delete = ON") }
        pool = try DatabasePool(path: path, configuration: configuration)
        // Every commit is synced: a push answered "applied" survives a power cut. Set on the
        // writer once the pool is open: GRDB's WAL set-up runs after `prepareDatabase` and sets
        // the writer to NORMAL, which may roll back the last commits on a power cut.
        try pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA synchronous = FULL") }
    }

    func prepare() async throws {
        try SchemaVersion.check(found: try await schemaVersion(), database: "'\(path)'")
        try SQLiteStore.migrator.migrate(pool)
        try await pool.write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO meta (key, value) VALUES ('epoch', ?)", arguments: [makeEpoch()])
            try db.execute(
                sql: "INSERT OR REPLACE INTO meta (key, value) VALUES ('schema', ?)",
                arguments: [String(SchemaVersion.current)])
        }
    }

    func schemaVersion() async throws -> Int? {
        try await pool.read { db in try SQLiteStore.schemaVersion(db) }
    }

    /// The `schema` row of `meta`; 1 for a database from before the row existed, nil for one
    /// without tables.
    static func schemaVersion(_ db: Database) throws -> Int? {
        guard try db.tableExists("meta") else { return nil }
        let text = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'schema'")
        return text.map { Int($0) ?? Int.max } ?? 1
    }

    /// SQLite's byte length of a text column (`%@`): `length` of text counts characters.
    static let byteLength = "length(CAST(%@ AS BLOB))"

    /// Frozen migrations: never edit a shipped one, add another.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
                    CREATE TABLE users (
                        id INTEGER PRIMARY KEY,
                        name TEXT NOT NULL UNIQUE,
                        seq INTEGER NOT NULL DEFAULT 0 CHECK (seq >= 0),
                        state_hash TEXT NOT NULL,
                        horizon INTEGER NOT NULL DEFAULT 0,
                        created_at TEXT NOT NULL);
                    CREATE TABLE tokens (
                        hash TEXT PRIMARY KEY NOT NULL,
                        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        created_at TEXT NOT NULL);
                    CREATE INDEX tokens_user ON tokens(user_id);
                    CREATE TABLE items (
                        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        id TEXT NOT NULL,
                        rev INTEGER NOT NULL CHECK (rev >= 1),
                        seq INTEGER NOT NULL,
                        deleted INTEGER NOT NULL CHECK (deleted IN (0, 1)),
                        deleted_at INTEGER NOT NULL DEFAULT 0,
                        doc TEXT NOT NULL,
                        PRIMARY KEY (user_id, id)) WITHOUT ROWID;
                    CREATE UNIQUE INDEX items_feed ON items(user_id, seq);
                    CREATE INDEX items_tombstones ON items(deleted_at) WHERE deleted = 1;
                    CREATE TABLE op_results (
                        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        op TEXT NOT NULL,
                        result TEXT NOT NULL,
                        created_at INTEGER NOT NULL,
                        PRIMARY KEY (user_id, op)) WITHOUT ROWID;
                    CREATE INDEX op_results_age ON op_results(created_at);
                    """)
        }
        migrator.registerMigration("v2 item versions and lineage") { db in
            try db.execute(
                sql: """
                    CREATE TABLE lineage (
                        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        epoch TEXT NOT NULL,
                        upto INTEGER NOT NULL,
                        PRIMARY KEY (user_id, epoch)) WITHOUT ROWID;
                    -- The device that wrote each item's current version (NULL before this column).
                    ALTER TABLE items ADD COLUMN device TEXT;
                    """)
            try db.execute(
                sql: VersionSQL.stampLegacyDocuments(epoch: "SELECT value FROM meta WHERE key = 'epoch'"))
        }
        migrator.registerMigration("v3 token names") { db in
            // The device a token was issued for, so one lost device's token can be revoked alone.
            try db.execute(sql: "ALTER TABLE tokens ADD COLUMN name TEXT")
        }
        migrator.registerMigration("v4 stored bytes") { db in
            // What each user's rows take, counted against the storage quota (`FeedHead.storedBytes`).
            try db.execute(sql: "ALTER TABLE users ADD COLUMN stored_bytes INTEGER NOT NULL DEFAULT 0")
            try db.execute(sql: StoredBytesSQL.recount(length: SQLiteStore.byteLength))
        }
        migrator.registerMigration("v5 attachment chunks") { db in
            // Attached files' chunks and manifests, per account (`SQLiteStore+Chunks.swift`).
            try db.execute(sql: SQLiteStore.chunkTablesSQL)
        }
        migrator.registerMigration("v6 key rings") { db in
            // An encrypted account's key ring (wrapped keys only) and its version (0: none).
            try db.execute(sql: "ALTER TABLE users ADD COLUMN keyring TEXT")
            try db.execute(sql: "ALTER TABLE users ADD COLUMN keyring_version INTEGER NOT NULL DEFAULT 0")
        }
        migrator.registerMigration("v7 key ring current key") { db in
            // The data key the ring names current (0: no ring), kept beside its version so a push
            // can refuse values sealed under an older key without opening the ring's JSON.
            try db.execute(sql: "ALTER TABLE users ADD COLUMN keyring_key INTEGER NOT NULL DEFAULT 0")
            try db.execute(sql: KeyRingSealing.currentKeyBackfill(reading: "json_extract(keyring, '$.currentKey')"))
        }
        migrator.registerMigration("v8 file claims") { db in
            // The items that claim each file (`FileClaimSQL`); files committed before are pinned.
            try db.execute(sql: FileClaimSQL.claimsTable(suffix: " WITHOUT ROWID"))
            try db.execute(sql: "ALTER TABLE files ADD COLUMN pinned INTEGER NOT NULL DEFAULT 1")
        }
        return migrator
    }

    func ping() async throws {
        _ = try await pool.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
    }

    func epoch() async throws -> String {
        try await pool.read { db in try SQLiteStore.epoch(db) }
    }

    func renewEpoch(now: Date) async throws -> String {
        let epoch = makeEpoch()
        try await pool.write { db in try SQLiteStore.renewEpoch(db, to: epoch, now: now) }
        return epoch
    }

    /// Records how far each user's feed reached in the current epoch (the lineage), then starts
    /// the new one: what a restored database holds of its earlier life stays known.
    static func renewEpoch(_ db: Database, to epoch: String, now: Date) throws {
        try db.execute(
            sql: """
                INSERT OR REPLACE INTO lineage (user_id, epoch, upto)
                SELECT id, (SELECT value FROM meta WHERE key = 'epoch'), seq FROM users
                """)
        try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES ('epoch', ?)", arguments: [epoch])
        try db.execute(sql: FileClaimSQL.renewClaims(now: Int64(now.timeIntervalSince1970)))
    }

    private static func epoch(_ db: Database) throws -> String {
        try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'epoch'") ?? ""
    }

    // MARK: - Users and tokens

    func addUser(name: String, tokenHash: String, now: Date) async throws {
        let name = try Self.validate(name: name)
        try await pool.write { db in
            if try Int64.fetchOne(db, sql: "SELECT id FROM users WHERE name = ?", arguments: [name]) != nil {
                throw StoreError.userExists(name)
            }
            let created = Timestamp.string(from: now)
            try db.execute(
                sql: "INSERT INTO users (name, state_hash, created_at) VALUES (?, ?, ?)",
                arguments: [name, StateHash().hex, created])
            try db.execute(
                sql: "INSERT INTO tokens (hash, user_id, created_at) VALUES (?, ?, ?)",
                arguments: [tokenHash, db.lastInsertedRowID, created])
        }
    }

    func addToken(userName: String, tokenHash: String, name: String?, now: Date) async throws {
        let name = try name.map(Self.validate(name:))
        try await pool.write { db in
            let id = try Self.userID(db, named: userName)
            if let name,
                try Bool.fetchOne(
                    db, sql: "SELECT 1 FROM tokens WHERE user_id = ? AND name = ?", arguments: [id, name]) != nil
            {
                throw StoreError.tokenNameTaken(user: userName, name: name)
            }
            try db.execute(
                sql: "INSERT INTO tokens (hash, user_id, created_at, name) VALUES (?, ?, ?, ?)",
                arguments: [tokenHash, id, Timestamp.string(from: now), name])
        }
    }

    private static func userID(_ db: Database, named name: String) throws -> Int64 {
        guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM users WHERE name = ?", arguments: [name]) else {
            throw StoreError.userNotFound(name)
        }
        return id
    }

    func tokens(userName: String) async throws -> [TokenSummary] {
        try await pool.read { db in
            let id = try Self.userID(db, named: userName)
            return try Row.fetchAll(
                db, sql: "SELECT hash, name, created_at FROM tokens WHERE user_id = ? ORDER BY created_at, hash",
                arguments: [id]
            ).map { row in
                TokenSummary(
                    id: String((row["hash"] as String).prefix(TokenSummary.idLength)), name: row["name"],
                    createdAt: row["created_at"])
            }
        }
    }

    func removeUser(name: String) async throws -> UserSummary {
        try await pool.write { db in
            let id = try Self.userID(db, named: name)
            guard let summary = try Self.summaries(db, where: "u.id = ?", [id]).first else {
                throw StoreError.userNotFound(name)
            }
            // Items, records, tokens and lineage go with the user (ON DELETE CASCADE).
            try db.execute(sql: "DELETE FROM users WHERE id = ?", arguments: [id])
            return summary
        }
    }

    func users() async throws -> [UserSummary] {
        try await pool.read { db in try Self.summaries(db, where: "1", []) }
    }

    private static func summaries(_ db: Database, where condition: String, _ arguments: StatementArguments) throws
        -> [UserSummary]
    {
        try Row.fetchAll(
            db,
            sql: """
                SELECT name, created_at,
                       (SELECT COUNT(*) FROM tokens t WHERE t.user_id = u.id) AS tokens,
                       (SELECT COUNT(*) FROM items i WHERE i.user_id = u.id AND i.deleted = 0) AS items,
                       stored_bytes
                FROM users u WHERE \(condition) ORDER BY name
                """, arguments: arguments
        ).map { row in
            UserSummary(
                name: row["name"], createdAt: row["created_at"], tokens: row["tokens"], items: row["items"],
                storedBytes: row["stored_bytes"])
        }
    }

    func revokeTokens(userName: String, matching selector: TokenSelector) async throws -> Int {
        try await pool.write { db in
            let id = try Self.userID(db, named: userName)
            let tokens = try Row.fetchAll(db, sql: "SELECT hash, name FROM tokens WHERE user_id = ?", arguments: [id])
                .map { (hash: $0["hash"] as String, name: $0["name"] as String?) }
            let chosen = try selector.pick(from: tokens, user: userName)
            for hash in chosen { try db.execute(sql: "DELETE FROM tokens WHERE hash = ?", arguments: [hash]) }
            return chosen.count
        }
    }

    func tokenOwner(tokenHash: String) async throws -> TokenOwner? {
        try await pool.read { db in
            let statement = try db.cachedStatement(
                sql: """
                    SELECT u.id, u.name, t.hash FROM tokens t JOIN users u ON u.id = t.user_id WHERE t.hash = ?
                    """)
            guard let row = try Row.fetchOne(statement, arguments: [tokenHash]) else { return nil }
            return TokenOwner(user: UserID(row[0]), name: row[1], tokenHash: row[2])
        }
    }

    // MARK: - Sync

    static func head(_ db: Database, user: UserID) throws -> FeedHead {
        let statement = try db.cachedStatement(
            sql: """
                SELECT seq, state_hash, horizon, (SELECT value FROM meta WHERE key = 'epoch'), stored_bytes,
                    keyring_version, keyring_key
                FROM users WHERE id = ?
                """)
        guard let row = try Row.fetchOne(statement, arguments: [user.rawValue]) else {
            throw ResyncRequired(reason: "the user no longer exists")
        }
        return FeedHead(
            seq: row[0], stateHash: row[1], horizon: row[2], epoch: row[3] ?? "", storedBytes: row[4], keyring: row[5],
            keyringKey: row[6])
    }

    func push(user: UserID, device: String, ops: [Op], cursor: FeedCursor?, planner: PushPlanner) async throws
        -> PushPlan
    {
        let driver = PushDriver(device: device, ops: ops, cursor: cursor, planner: planner)
        let (plan, sealedReadableText) = try await pool.write { db in
            let transaction = SQLitePushTransaction(db: db, user: user)
            let (plan, writes) = try driver.decide(try transaction.read(driver.request))
            try transaction.write(writes)
            return (plan, writes.replacesReadableText)
        }
        if sealedReadableText { await forgetOldVersions() }
        return plan
    }

    /// Clears what the database's files keep of versions it no longer holds, once an encrypted
    /// account's readable text was replaced (its first key ring; its items sealed as it is
    /// converted): `secure_delete` zeroes freed space in the database file, and a checkpoint
    /// that truncates the WAL takes the old frames out of it. It waits for readers to finish;
    /// it runs once per item an account ever converts. A failure leaves the frames until the
    /// next checkpoint: logged, and the push it follows has already answered.
    func forgetOldVersions() async {
        do {
            try await pool.barrierWriteWithoutTransaction { db in
                try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
            }
        } catch {
            Logger(label: "quire.server.sqlite").warning(
                "could not checkpoint after sealing", metadata: ["error": "\(error)"])
        }
    }

    func pull(user: UserID, after: Int64, excluding device: String?, limit: Int, maxBytes: Int) async throws
        -> FeedPage
    {
        try await pool.read { db in
            let head = try SQLiteStore.head(db, user: user)
            let statement = try db.cachedStatement(
                sql: """
                    SELECT seq, doc FROM items WHERE user_id = ? AND seq > ? AND device IS NOT ?
                    ORDER BY seq LIMIT ?
                    """)
            let rows = try Row.fetchCursor(statement, arguments: [user.rawValue, after, device, limit + 1])
            var page = PageBuilder<Int64>(limit: limit, maxBytes: maxBytes)
            while let row = try rows.next() {
                if !page.add(doc: row[1], key: row[0] as Int64) { break }
            }
            return FeedPage(docs: page.docs, lastSeq: page.lastKey, more: page.more, head: head)
        }
    }

    func snapshot(user: UserID, after: String?, limit: Int, maxBytes: Int) async throws -> SnapshotRead {
        try await pool.read { db in
            let head = try SQLiteStore.head(db, user: user)
            let statement = try db.cachedStatement(
                sql: """
                    SELECT id, doc FROM items WHERE user_id = ? AND id > ? ORDER BY id LIMIT ?
                    """)
            let rows = try Row.fetchCursor(statement, arguments: [user.rawValue, after ?? "", limit + 1])
            var page = PageBuilder<String>(limit: limit, maxBytes: maxBytes)
            while let row = try rows.next() {
                if !page.add(doc: row[1], key: row[0] as String) { break }
            }
            var lineage: [String: Int64] = [:]
            let stamps = try db.cachedStatement(sql: "SELECT epoch, upto FROM lineage WHERE user_id = ?")
            for row in try Row.fetchAll(stamps, arguments: [user.rawValue]) {
                lineage[row[0]] = row[1]
            }
            return SnapshotRead(
                docs: page.docs, lastID: page.lastKey, more: page.more, head: head,
                lineage: lineage.isEmpty ? nil : ServerVersion(lineage))
        }
    }

    func purge(before cutoff: Date) async throws -> PurgeSummary {
        let seconds = Int64(cutoff.timeIntervalSince1970)
        return try await pool.write { db in
            var summary = PurgeSummary(tombstones: 0, records: 0)
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT user_id, MAX(seq) AS top, SUM(length(CAST(doc AS BLOB))) AS bytes FROM items
                    WHERE deleted = 1 AND deleted_at < ? GROUP BY user_id
                    """, arguments: [seconds])
            for row in rows {
                let user: Int64 = row["user_id"]
                let top: Int64 = row["top"]
                let bytes: Int64 = row["bytes"]
                try db.execute(
                    sql: "DELETE FROM items WHERE user_id = ? AND deleted = 1 AND deleted_at < ?",
                    arguments: [user, seconds])
                summary.tombstones += db.changesCount
                try db.execute(
                    sql: "UPDATE users SET horizon = MAX(horizon, ?), stored_bytes = stored_bytes - ? WHERE id = ?",
                    arguments: [top, bytes, user])
            }
            try db.execute(
                sql: """
                    UPDATE users SET stored_bytes = stored_bytes - (
                        SELECT SUM(length(CAST(result AS BLOB))) FROM op_results
                        WHERE op_results.user_id = users.id AND created_at < ?)
                    WHERE id IN (SELECT DISTINCT user_id FROM op_results WHERE created_at < ?)
                    """, arguments: [seconds, seconds])
            try db.execute(sql: "DELETE FROM op_results WHERE created_at < ?", arguments: [seconds])
            summary.records = db.changesCount
            return summary
        }
    }

    func feedSeq(user: UserID) async throws -> Int64 {
        try await pool.read { db in try SQLiteStore.head(db, user: user).seq }
    }

    func validTokenHashes(_ hashes: Set<String>) async throws -> Set<String> {
        try await pool.read { db in
            let statement = try db.cachedStatement(sql: "SELECT 1 FROM tokens WHERE hash = ?")
            return Set(try hashes.filter { try Int.fetchOne(statement, arguments: [$0]) != nil })
        }
    }

    /// One process serves an SQLite database: its pushes publish in process.
    func listenForFeedMoves(logger: Logger, _ publish: @escaping @Sendable (UserID, Int64) -> Void) async {}

    func stats(user: UserID) async throws -> UserStats {
        try await pool.read { db in
            let head = try SQLiteStore.head(db, user: user)
            let live =
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM items WHERE user_id = ? AND deleted = 0", arguments: [user.rawValue])
                ?? 0
            let dead =
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM items WHERE user_id = ? AND deleted = 1", arguments: [user.rawValue])
                ?? 0
            let records =
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM op_results WHERE user_id = ?", arguments: [user.rawValue]) ?? 0
            let counted =
                try Int64.fetchOne(
                    db, sql: "SELECT \(StoredBytesSQL.counted(length: SQLiteStore.byteLength)) FROM users WHERE id = ?",
                    arguments: [user.rawValue]) ?? 0
            return UserStats(
                seq: head.seq, items: live, tombstones: dead, records: records, stateHash: head.stateHash,
                storedBytes: head.storedBytes, countedBytes: counted)
        }
    }
}

/// Fills a page up to its item limit and (after the first item) its byte budget.
struct PageBuilder<Key> {
    let limit: Int
    let maxBytes: Int
    private(set) var docs: [String] = []
    private(set) var lastKey: Key?
    private(set) var more = false
    private var bytes = 0

    init(limit: Int, maxBytes: Int) {
        self.limit = limit
        self.maxBytes = maxBytes
        docs.reserveCapacity(min(limit, 1024))
    }

    /// Adds one row; false when the page is full (and `more` is then true).
    mutating func add(doc: String, key: Key) -> Bool {
        let size = doc.utf8.count
        if docs.count >= limit || (!docs.isEmpty && bytes + size > maxBytes) {
            more = true
            return false
        }
        docs.append(doc)
        bytes += size
        lastKey = key
        return true
    }
}
