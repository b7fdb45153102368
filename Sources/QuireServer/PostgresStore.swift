import Foundation
import Logging
import NIOSSL
import PostgresNIO
import QuireCore
import QuireProtocol
import ServiceLifecycle

/// The shared store: PostgreSQL, for deployments that run several server processes.
///
/// Processes keep nothing of their own. A push locks the user's row (`SELECT … FOR UPDATE`)
/// before it reads anything, so writers of one user queue up, the sequence numbers they take
/// follow commit order, and a reader's snapshot never shows sequence N+1 without N.
final class PostgresStore: SyncStore {
    let client: PostgresClient
    private let schema: String?
    let logger: Logger

    var services: [any Service] { [client] }

    /// Connects to `url` (`postgres://user[:password]@host[:port]/database[?sslmode=…]`).
    ///
    /// `schema`, when given, is created if missing and used as the search path of every
    /// connection (tests give each case its own schema).
    init(url: String, schema: String? = nil, maximumConnections: Int = 16, logger: Logger) throws {
        var configuration = try PostgresStore.configuration(url: url)
        configuration.options.maximumConnections = maximumConnections
        configuration.options.minimumConnections = 0
        if let schema {
            guard !schema.isEmpty,
                schema.utf8.allSatisfy({ ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 95 })
            else {
                throw ConfigurationError("invalid schema name '\(schema)': use a-z, 0-9 and _")
            }
            configuration.options.additionalStartupParameters = [("search_path", schema)]
        }
        self.schema = schema
        self.logger = logger
        client = PostgresClient(configuration: configuration, backgroundLogger: logger)
    }

    /// Reads a libpq-style URL; `sslmode` may be `disable` (the default), `prefer` or `require`.
    static func configuration(url text: String) throws -> PostgresClient.Configuration {
        guard let url = URL(string: text), ["postgres", "postgresql"].contains(url.scheme ?? ""),
            let host = url.host, !host.isEmpty
        else {
            throw ConfigurationError(
                "invalid PostgreSQL URL '\(text)': use postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE")
        }
        let database = url.path.hasPrefix("/") ? String(url.path.dropFirst()) : url.path
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        let sslmode = components?.queryItems?.first { $0.name == "sslmode" }?.value ?? "disable"
        let tls: PostgresClient.Configuration.TLS
        switch sslmode {
        case "disable": tls = .disable
        case "prefer", "allow": tls = .prefer(.makeClientConfiguration())
        case "require", "verify-ca", "verify-full": tls = .require(.makeClientConfiguration())
        default: throw ConfigurationError("invalid sslmode '\(sslmode)': use disable, prefer or require")
        }
        return PostgresClient.Configuration(
            host: host, port: url.port ?? 5432, username: url.user(percentEncoded: false) ?? "postgres",
            password: url.password(percentEncoded: false), database: database.isEmpty ? nil : database, tls: tls)
    }

    // MARK: - Transactions

    /// Runs `body` in a transaction on one pooled connection; rolls back when it throws and
    /// rethrows its error unchanged.
    func transaction<T: Sendable>(
        readOnly: Bool = false, _ body: @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await client.withConnection { connection in
            let begin: PostgresQuery = readOnly ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN"
            try await connection.query(begin, logger: self.logger)
            do {
                let value = try await body(connection)
                try await connection.query("COMMIT", logger: self.logger)
                return value
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: self.logger)
                throw error
            }
        }
    }

    func prepare() async throws {
        try await transaction { connection in
            // One process creates the tables; the others wait here and then find them.
            try await connection.query("SELECT pg_advisory_xact_lock(7345102231)", logger: self.logger)
            try SchemaVersion.check(found: try await self.schemaVersion(connection), database: "on PostgreSQL")
            if let schema = self.schema {
                try await connection.query(
                    PostgresQuery(unsafeSQL: "CREATE SCHEMA IF NOT EXISTS \"\(schema)\""), logger: self.logger)
            }
            let found = try await self.schemaVersion(connection)
            for statement in PostgresStore.schemaV1 + PostgresStore.schemaV2 + PostgresStore.schemaV3
                + PostgresStore.schemaV4 + PostgresStore.chunkSchema + PostgresStore.schemaV6 + PostgresStore.schemaV7
                + PostgresStore.claimSchema
            {
                try await connection.query(PostgresQuery(unsafeSQL: statement), logger: self.logger)
            }
            if let found, found < 7 {
                try await connection.query(
                    PostgresQuery(
                        unsafeSQL: KeyRingSealing.currentKeyBackfill(reading: "(keyring::json->>'currentKey')::bigint")),
                    logger: self.logger)
            }
            if let found, found < 4 {
                try await connection.query(
                    PostgresQuery(unsafeSQL: StoredBytesSQL.recount(length: PostgresStore.byteLength)),
                    logger: self.logger)
            }
            if let found, found < 2 {
                try await connection.query(
                    PostgresQuery(
                        unsafeSQL: VersionSQL.stampLegacyDocuments(epoch: "SELECT value FROM meta WHERE key = 'epoch'")),
                    logger: self.logger)
            }
            let epoch = makeEpoch()
            try await connection.query(
                "INSERT INTO meta (key, value) VALUES ('epoch', \(epoch)) ON CONFLICT (key) DO NOTHING",
                logger: self.logger)
            let schema = String(SchemaVersion.current)
            try await connection.query(
                "INSERT INTO meta (key, value) VALUES ('schema', \(schema)) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                logger: self.logger)
        }
    }

    func schemaVersion() async throws -> Int? {
        try await transaction(readOnly: true) { connection in try await self.schemaVersion(connection) }
    }

    /// The `schema` row of `meta`, or nil before the tables exist.
    private func schemaVersion(_ connection: PostgresConnection) async throws -> Int? {
        let exists = try await connection.query("SELECT to_regclass('meta') IS NOT NULL", logger: logger)
        var found = false
        for try await (present) in exists.decode(Bool.self) { found = present }
        guard found else { return nil }
        let rows = try await connection.query("SELECT value FROM meta WHERE key = 'schema'", logger: logger)
        var version = 1
        for try await (text) in rows.decode(String.self) { version = Int(text) ?? Int.max }
        return version
    }

    /// The tables; `IF NOT EXISTS` keeps this safe to run at every start.
    private static let schemaV1 = [
        "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        """
        CREATE TABLE IF NOT EXISTS users (
            id BIGSERIAL PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            seq BIGINT NOT NULL DEFAULT 0 CHECK (seq >= 0),
            state_hash TEXT NOT NULL,
            horizon BIGINT NOT NULL DEFAULT 0,
            created_at TEXT NOT NULL)
        """,
        """
        CREATE TABLE IF NOT EXISTS tokens (
            hash TEXT PRIMARY KEY,
            user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            created_at TEXT NOT NULL)
        """,
        "CREATE INDEX IF NOT EXISTS tokens_user ON tokens(user_id)",
        """
        CREATE TABLE IF NOT EXISTS items (
            user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            id TEXT COLLATE "C" NOT NULL,
            rev BIGINT NOT NULL CHECK (rev >= 1),
            seq BIGINT NOT NULL,
            deleted BOOLEAN NOT NULL,
            deleted_at BIGINT NOT NULL DEFAULT 0,
            doc TEXT NOT NULL,
            PRIMARY KEY (user_id, id))
        """,
        "CREATE UNIQUE INDEX IF NOT EXISTS items_feed ON items(user_id, seq)",
        "CREATE INDEX IF NOT EXISTS items_tombstones ON items(deleted_at) WHERE deleted",
        """
        CREATE TABLE IF NOT EXISTS op_results (
            user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            op TEXT NOT NULL,
            result TEXT NOT NULL,
            created_at BIGINT NOT NULL,
            PRIMARY KEY (user_id, op))
        """,
        "CREATE INDEX IF NOT EXISTS op_results_age ON op_results(created_at)",
    ]

    /// Schema 2: what the database kept of its earlier epochs, per user.
    private static let schemaV2 = [
        """
        CREATE TABLE IF NOT EXISTS lineage (
            user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            epoch TEXT NOT NULL,
            upto BIGINT NOT NULL,
            PRIMARY KEY (user_id, epoch))
        """,
        // The device that wrote each item's current version (NULL before this column).
        "ALTER TABLE items ADD COLUMN IF NOT EXISTS device TEXT",
    ]

    /// Schema 3: the device a token was issued for, so one lost device's token can be revoked alone.
    private static let schemaV3 = [
        "ALTER TABLE tokens ADD COLUMN IF NOT EXISTS name TEXT"
    ]

    /// Schema 4: what each user's rows take, counted against the storage quota.
    private static let schemaV4 = [
        "ALTER TABLE users ADD COLUMN IF NOT EXISTS stored_bytes BIGINT NOT NULL DEFAULT 0"
    ]

    /// Schema 6: an encrypted account's key ring (wrapped keys only) and its version (0: none).
    private static let schemaV6 = [
        "ALTER TABLE users ADD COLUMN IF NOT EXISTS keyring TEXT",
        "ALTER TABLE users ADD COLUMN IF NOT EXISTS keyring_version BIGINT NOT NULL DEFAULT 0",
    ]

    /// Schema 7: the data key the ring names current (0: no ring), kept beside its version so a
    /// push can refuse values sealed under an older key without opening the ring's JSON.
    private static let schemaV7 = [
        "ALTER TABLE users ADD COLUMN IF NOT EXISTS keyring_key BIGINT NOT NULL DEFAULT 0"
    ]

    /// PostgreSQL's byte length of a text column (`%@`).
    static let byteLength = "octet_length(%@)"

    func ping() async throws {
        try await client.query("SELECT 1", logger: logger)
    }

    func epoch() async throws -> String {
        let rows = try await client.query("SELECT value FROM meta WHERE key = 'epoch'", logger: logger)
        for try await value in rows.decode(String.self) { return value }
        return ""
    }

    func renewEpoch(now: Date) async throws -> String {
        let epoch = makeEpoch()
        try await transaction { connection in
            try await connection.query(
                """
                INSERT INTO lineage (user_id, epoch, upto)
                SELECT id, (SELECT value FROM meta WHERE key = 'epoch'), seq FROM users
                ON CONFLICT (user_id, epoch) DO UPDATE SET upto = excluded.upto
                """, logger: self.logger)
            try await connection.query(
                "INSERT INTO meta (key, value) VALUES ('epoch', \(epoch)) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                logger: self.logger)
            try await connection.query(
                PostgresQuery(unsafeSQL: FileClaimSQL.renewClaims(now: Int64(now.timeIntervalSince1970))),
                logger: self.logger)
        }
        return epoch
    }

    // MARK: - Users and tokens

    func addUser(name: String, tokenHash: String, now: Date) async throws {
        let name = try Self.validate(name: name)
        let created = Timestamp.string(from: now)
        let emptyHash = StateHash().hex
        try await transaction { connection in
            let rows = try await connection.query(
                "INSERT INTO users (name, state_hash, created_at) VALUES (\(name), \(emptyHash), \(created)) ON CONFLICT (name) DO NOTHING RETURNING id",
                logger: self.logger)
            var id: Int64?
            for try await value in rows.decode(Int64.self) { id = value }
            guard let id else { throw StoreError.userExists(name) }
            try await connection.query(
                "INSERT INTO tokens (hash, user_id, created_at) VALUES (\(tokenHash), \(id), \(created))",
                logger: self.logger)
        }
    }

    func addToken(userName: String, tokenHash: String, name: String?, now: Date) async throws {
        let name = try name.map(Self.validate(name:))
        let created = Timestamp.string(from: now)
        try await transaction { connection in
            guard let id = try await self.userID(named: userName, on: connection, lock: true) else {
                throw StoreError.userNotFound(userName)
            }
            if let name {
                let taken = try await connection.query(
                    "SELECT 1 FROM tokens WHERE user_id = \(id) AND name = \(name)", logger: self.logger)
                for try await _ in taken.decode(Int32.self) {
                    throw StoreError.tokenNameTaken(user: userName, name: name)
                }
            }
            try await connection.query(
                "INSERT INTO tokens (hash, user_id, created_at, name) VALUES (\(tokenHash), \(id), \(created), \(name))",
                logger: self.logger)
        }
    }

    func tokens(userName: String) async throws -> [TokenSummary] {
        try await transaction { connection in
            guard let id = try await self.userID(named: userName, on: connection) else {
                throw StoreError.userNotFound(userName)
            }
            let rows = try await connection.query(
                "SELECT hash, name, created_at FROM tokens WHERE user_id = \(id) ORDER BY created_at, hash",
                logger: self.logger)
            var tokens: [TokenSummary] = []
            for try await (hash, name, created) in rows.decode((String, String?, String).self) {
                tokens.append(
                    TokenSummary(id: String(hash.prefix(TokenSummary.idLength)), name: name, createdAt: created))
            }
            return tokens
        }
    }

    func removeUser(name: String) async throws -> UserSummary {
        try await transaction { connection in
            guard let id = try await self.userID(named: name, on: connection, lock: true) else {
                throw StoreError.userNotFound(name)
            }
            guard let summary = try await self.summaries(where: "u.id = \(id)", on: connection).first else {
                throw StoreError.userNotFound(name)
            }
            // Items, records, tokens and lineage go with the user (ON DELETE CASCADE).
            try await connection.query("DELETE FROM users WHERE id = \(id)", logger: self.logger)
            return summary
        }
    }

    private func userID(named name: String, on connection: PostgresConnection, lock: Bool = false) async throws
        -> Int64?
    {
        // Locking the user's row serializes this with the user's pushes (which lock it first).
        let rows =
            lock
            ? try await connection.query("SELECT id FROM users WHERE name = \(name) FOR UPDATE", logger: logger)
            : try await connection.query("SELECT id FROM users WHERE name = \(name)", logger: logger)
        for try await id in rows.decode(Int64.self) { return id }
        return nil
    }

    func users() async throws -> [UserSummary] {
        try await transaction { connection in try await self.summaries(where: "TRUE", on: connection) }
    }

    /// Users matching `condition` (SQL over `u`, the users table; no client input in it).
    private func summaries(where condition: String, on connection: PostgresConnection) async throws -> [UserSummary] {
        let rows = try await connection.query(
            PostgresQuery(
                unsafeSQL: """
                    SELECT name, created_at,
                           (SELECT COUNT(*) FROM tokens t WHERE t.user_id = u.id),
                           (SELECT COUNT(*) FROM items i WHERE i.user_id = u.id AND NOT i.deleted),
                           stored_bytes
                    FROM users u WHERE \(condition) ORDER BY name
                    """), logger: logger)
        var result: [UserSummary] = []
        for try await (name, created, tokens, items, bytes) in rows.decode((String, String, Int64, Int64, Int64).self) {
            result.append(
                UserSummary(name: name, createdAt: created, tokens: Int(tokens), items: Int(items), storedBytes: bytes))
        }
        return result
    }

    func revokeTokens(userName: String, matching selector: TokenSelector) async throws -> Int {
        try await transaction { connection in
            guard let id = try await self.userID(named: userName, on: connection) else {
                throw StoreError.userNotFound(userName)
            }
            let rows = try await connection.query(
                "SELECT hash, name FROM tokens WHERE user_id = \(id) FOR UPDATE", logger: self.logger)
            var tokens: [(hash: String, name: String?)] = []
            for try await (hash, name) in rows.decode((String, String?).self) { tokens.append((hash, name)) }
            let chosen = try selector.pick(from: tokens, user: userName)
            try await connection.query("DELETE FROM tokens WHERE hash = ANY(\(chosen))", logger: self.logger)
            return chosen.count
        }
    }

    func tokenOwner(tokenHash: String) async throws -> TokenOwner? {
        let rows = try await client.query(
            "SELECT u.id, u.name, t.hash FROM tokens t JOIN users u ON u.id = t.user_id WHERE t.hash = \(tokenHash)",
            logger: logger)
        for try await (id, name, hash) in rows.decode((Int64, String, String).self) {
            return TokenOwner(user: UserID(id), name: name, tokenHash: hash)
        }
        return nil
    }

    // MARK: - Sync

    /// The user's feed head; `FOR UPDATE` in a push, so that writers of one user queue here.
    func head(user: UserID, lock: Bool, on connection: PostgresConnection) async throws -> FeedHead {
        let query: PostgresQuery =
            lock
            ? "SELECT seq, state_hash, horizon, (SELECT value FROM meta WHERE key = 'epoch'), stored_bytes, keyring_version, keyring_key FROM users WHERE id = \(user.rawValue) FOR UPDATE"
            : "SELECT seq, state_hash, horizon, (SELECT value FROM meta WHERE key = 'epoch'), stored_bytes, keyring_version, keyring_key FROM users WHERE id = \(user.rawValue)"
        let rows = try await connection.query(query, logger: logger)
        for try await (seq, hash, horizon, epoch, bytes, keyring, key) in rows.decode(
            (Int64, String, Int64, String?, Int64, Int64, Int64).self)
        {
            return FeedHead(
                seq: seq, stateHash: hash, horizon: horizon, epoch: epoch ?? "", storedBytes: bytes,
                keyring: Int(keyring), keyringKey: Int(key))
        }
        throw ResyncRequired(reason: "the user no longer exists")
    }

    func push(user: UserID, device: String, ops: [Op], cursor: FeedCursor?, planner: PushPlanner) async throws
        -> PushPlan
    {
        let driver = PushDriver(device: device, ops: ops, cursor: cursor, planner: planner)
        return try await transaction { connection in
            let transaction = PostgresPushTransaction(
                store: self, connection: connection, user: user, logger: self.logger)
            let (plan, writes) = try driver.decide(try await transaction.read(driver.request))
            try await transaction.write(writes)
            return plan
        }
    }

    func pull(user: UserID, after: Int64, excluding device: String?, limit: Int, maxBytes: Int) async throws
        -> FeedPage
    {
        try await transaction(readOnly: true) { connection in
            let head = try await self.head(user: user, lock: false, on: connection)
            let rows = try await connection.query(
                """
                SELECT seq, doc FROM items WHERE user_id = \(user.rawValue) AND seq > \(after)
                    AND device IS DISTINCT FROM \(device) ORDER BY seq LIMIT \(limit + 1)
                """, logger: self.logger)
            var page = PageBuilder<Int64>(limit: limit, maxBytes: maxBytes)
            var full = false
            for try await (seq, doc) in rows.decode((Int64, String).self) where !full {
                full = !page.add(doc: doc, key: seq)
            }
            return FeedPage(docs: page.docs, lastSeq: page.lastKey, more: page.more, head: head)
        }
    }

    func snapshot(user: UserID, after: String?, limit: Int, maxBytes: Int) async throws -> SnapshotRead {
        try await transaction(readOnly: true) { connection in
            let head = try await self.head(user: user, lock: false, on: connection)
            let rows = try await connection.query(
                """
                SELECT id, doc FROM items WHERE user_id = \(user.rawValue) AND id > \(after ?? "")
                ORDER BY id LIMIT \(limit + 1)
                """, logger: self.logger)
            var page = PageBuilder<String>(limit: limit, maxBytes: maxBytes)
            var full = false
            for try await (id, doc) in rows.decode((String, String).self) where !full {
                full = !page.add(doc: doc, key: id)
            }
            var lineage: [String: Int64] = [:]
            let stamps = try await connection.query(
                "SELECT epoch, upto FROM lineage WHERE user_id = \(user.rawValue)", logger: self.logger)
            for try await (epoch, upto) in stamps.decode((String, Int64).self) { lineage[epoch] = upto }
            return SnapshotRead(
                docs: page.docs, lastID: page.lastKey, more: page.more, head: head,
                lineage: lineage.isEmpty ? nil : ServerVersion(lineage))
        }
    }

    func purge(before cutoff: Date) async throws -> PurgeSummary {
        let seconds = Int64(cutoff.timeIntervalSince1970)
        var summary = PurgeSummary(tombstones: 0, records: 0)
        var users: [Int64] = []
        let rows = try await client.query(
            "SELECT DISTINCT user_id FROM items WHERE deleted AND deleted_at < \(seconds)", logger: logger)
        for try await user in rows.decode(Int64.self) { users.append(user) }
        for user in users {
            // Under the user's row lock, like a push: the horizon and the deletion move together.
            summary.tombstones += try await transaction { connection in
                _ = try await self.head(user: UserID(user), lock: true, on: connection)
                let purged = try await connection.query(
                    """
                    DELETE FROM items WHERE user_id = \(user) AND deleted AND deleted_at < \(seconds)
                    RETURNING seq, octet_length(doc)::bigint
                    """,
                    logger: self.logger)
                var top: Int64 = 0
                var bytes: Int64 = 0
                var count = 0
                for try await (seq, length) in purged.decode((Int64, Int64).self) {
                    top = max(top, seq)
                    bytes += length
                    count += 1
                }
                if count > 0 {
                    try await connection.query(
                        """
                        UPDATE users SET horizon = GREATEST(horizon, \(top)), stored_bytes = stored_bytes - \(bytes)
                        WHERE id = \(user)
                        """, logger: self.logger)
                }
                return count
            }
        }
        // One statement: the records go and their owners' counts drop together.
        let records = try await client.query(
            """
            WITH gone AS (
                DELETE FROM op_results WHERE created_at < \(seconds) RETURNING user_id, octet_length(result) AS bytes),
            per_user AS (SELECT user_id, SUM(bytes)::bigint AS bytes, COUNT(*)::bigint AS count FROM gone GROUP BY user_id),
            counted AS (
                UPDATE users SET stored_bytes = users.stored_bytes - per_user.bytes FROM per_user
                WHERE users.id = per_user.user_id RETURNING per_user.count)
            SELECT COALESCE(SUM(count), 0)::bigint FROM counted
            """, logger: logger)
        for try await count in records.decode(Int64.self) { summary.records = Int(count) }
        return summary
    }

    func feedSeq(user: UserID) async throws -> Int64 {
        let rows = try await client.query("SELECT seq FROM users WHERE id = \(user.rawValue)", logger: logger)
        for try await seq in rows.decode(Int64.self) { return seq }
        throw ResyncRequired(reason: "the user no longer exists")
    }

    func validTokenHashes(_ hashes: Set<String>) async throws -> Set<String> {
        let list = Array(hashes)
        let rows = try await client.query("SELECT hash FROM tokens WHERE hash = ANY(\(list))", logger: logger)
        var valid = Set<String>()
        for try await hash in rows.decode(String.self) { valid.insert(hash) }
        return valid
    }

    /// The channel every push notifies with `USER:SEQ`, so that a device connected to any
    /// server process hears of a write through any other.
    static let feedChannel = "quire_feed"

    /// Listens on `feedChannel` on a connection of its own, reconnecting after a second when it
    /// drops, until cancelled.
    func listenForFeedMoves(logger: Logger, _ publish: @escaping @Sendable (UserID, Int64) -> Void) async {
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: PostgresStore.feedChannel) { notifications in
                        for try await notification in notifications {
                            let parts = notification.payload.split(separator: ":")
                            guard parts.count == 2, let user = Int64(parts[0]), let seq = Int64(parts[1]) else {
                                continue
                            }
                            publish(UserID(user), seq)
                        }
                    }
                }
            } catch {
                if Task.isCancelled { return }
                logger.warning("listening for feed moves failed; again in 1 s", metadata: ["error": "\(error)"])
            }
            try? await Task.sleep(for: .seconds(1))
        }
    }

    func stats(user: UserID) async throws -> UserStats {
        try await transaction(readOnly: true) { connection in
            let head = try await self.head(user: user, lock: false, on: connection)
            let rows = try await connection.query(
                """
                SELECT (SELECT COUNT(*) FROM items WHERE user_id = \(user.rawValue) AND NOT deleted),
                       (SELECT COUNT(*) FROM items WHERE user_id = \(user.rawValue) AND deleted),
                       (SELECT COUNT(*) FROM op_results WHERE user_id = \(user.rawValue)),
                       (SELECT (\(unescaped: StoredBytesSQL.counted(length: PostgresStore.byteLength)))::bigint
                        FROM users WHERE id = \(user.rawValue))
                """, logger: self.logger)
            for try await (live, dead, records, counted) in rows.decode((Int64, Int64, Int64, Int64).self) {
                return UserStats(
                    seq: head.seq, items: Int(live), tombstones: Int(dead), records: Int(records),
                    stateHash: head.stateHash, storedBytes: head.storedBytes, countedBytes: counted)
            }
            return UserStats(seq: head.seq, items: 0, tombstones: 0, records: 0, stateHash: head.stateHash)
        }
    }
}

/// A configuration mistake, reported as one line.
public struct ConfigurationError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

extension PostgresStore {
    /// Drops this store's own schema (tests give every case one).
    func dropSchema() async throws {
        guard let schema else { return }
        try await client.query(PostgresQuery(unsafeSQL: "DROP SCHEMA IF EXISTS \"\(schema)\" CASCADE"), logger: logger)
    }
}
