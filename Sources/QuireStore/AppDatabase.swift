import Foundation
import GRDB
import QuireCore

/// The one gateway to Quire's local store: an SQLite database in WAL mode behind a GRDB
/// `DatabasePool`, so the sync worker can write while the UI reads (or, for a short-lived CLI
/// command, behind a single connection: see `Connections`).
///
/// Every write is one transaction that keeps the store's invariants: the item row, the
/// version it adds to the item's history and the outbox operation that carries it to the
/// server are written together or not at all (see `AppDatabase+Writes.swift`). Reads never
/// see half a change.
///
/// Thread-safe: every method may be called from any thread or queue. Opening is cheap (one
/// connection, one query to see whether migrations are due), because the CLI opens the store
/// once per process.
public final class AppDatabase: Sendable {
    /// The shortest id prefix accepted on the command line (SPEC: at least 4 characters).
    public static let minimumPrefixLength = 4
    /// How many candidates an ambiguous-prefix error lists.
    static let ambiguityListLength = 5

    /// How a store reaches its file.
    public enum Connections: Sendable {
        /// A `DatabasePool`: a writer and concurrent readers. For long-lived processes (the TUI
        /// with its sync worker), where reads must not wait for writes.
        case pool
        /// One connection for reads and writes. For one-shot commands: the cheapest start (no
        /// reader connections, no WAL set-up write) when the process exits in milliseconds.
        case single
    }

    /// The database file.
    public let path: String
    /// The pool or the single connection every read and write goes through.
    let writer: any DatabaseWriter
    /// Whether `writer` is a single connection (see `Connections.single`).
    private let isSingleConnection: Bool
    /// The clock and id source of every write, shared with whoever writes beside the store
    /// (the sync ledger, the app's resolutions) so that all of them agree.
    public let environment: StoreEnvironment
    /// The dedicated connection `dataVersion()` asks; opened on first use.
    private let versionReader = VersionReader()
    /// A directory this instance made and removes when it goes away (temporary stores only).
    private let ownedDirectory: String?

    private init(path: String, writer: any DatabaseWriter, environment: StoreEnvironment, ownedDirectory: String?) {
        self.path = path
        self.writer = writer
        self.isSingleConnection = writer is DatabaseQueue
        self.environment = environment
        self.ownedDirectory = ownedDirectory
    }

    deinit {
        if let ownedDirectory {
            try? FileManager.default.removeItem(atPath: ownedDirectory)
        }
    }

    // MARK: - Opening

    /// Opens (or creates) the database at `path` and brings its schema up to date.
    ///
    /// The parent directory must exist. A file that is not an SQLite database, a corrupt one,
    /// one made by a newer Quire, or one that cannot be written throws `StoreError.unusable` and
    /// is left byte for byte as it was.
    /// `beforeUpgrade` is called when an existing store needs this version's migrations, just
    /// before they run: rebuilding an index of a million items takes seconds, and a person should
    /// know why the command has not answered yet.
    ///
    /// Reads go through `pread` into SQLite's own page cache, never memory mapping. A search of a
    /// million items reads a thousand scattered pages: mapped, each costs a page fault, often a
    /// page table of its own, and their teardown at exit. Measured on such a store, `quire search`
    /// took the same time either way (within 0.6 ms) with the WAL empty, and 0.6 to 2.7 ms longer
    /// mapped with the WAL near its checkpoint.
    public static func open(
        path: String, environment: StoreEnvironment = .live, connections: Connections = .pool,
        beforeUpgrade: (() -> Void)? = nil
    ) throws(StoreError) -> AppDatabase {
        try checkHeader(path: path)
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.foreignKeysEnabled = true
        configuration.maximumReaderCount = 4
        let migrator = Self.migrator(environment: environment)
        let isNew = !FileManager.default.fileExists(atPath: path)
        // An existing file is checked first on a plain connection that never writes: opening a
        // pool may write (GRDB makes sure a WAL file exists), and a file we refuse must be left
        // exactly as it was. In `.pool` mode the probe stays open until the pool is, so that
        // closing it never checkpoints the WAL on its own; in `.single` mode it is the store.
        var probe: DatabaseQueue?
        var migrationsDue = true
        do {
            if !isNew || connections == .single {
                let queue = try DatabaseQueue(path: path, configuration: configuration)
                probe = queue
                migrationsDue = try queue.inDatabase { db in
                    _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master")
                    switch try migrator.state(db) {
                    case .complete: return false
                    case .due: return true
                    case .superseded:
                        throw StoreError.unusable(path: path, reason: "it was written by a newer version of Quire")
                    }
                }
            }
        } catch {
            throw unusable(path: path, error)
        }
        defer { if connections == .pool { try? probe?.close() } }
        let writer: any DatabaseWriter
        do {
            switch connections {
            case .pool:
                let pool = try DatabasePool(path: path, configuration: configuration)
                // As on a single connection below, every commit is synced (FULL): what a person
                // saved in the app survives a power cut. GRDB's WAL set-up leaves a pool's writer
                // at NORMAL (after `prepareDatabase`, so it is set here), which may roll back the
                // last commits on a power cut or an OS crash.
                try pool.writeWithoutTransaction { try $0.execute(sql: CommitDurability.synced.pragma) }
                writer = pool
            case .single:
                let queue = probe!
                if migrationsDue {
                    // WAL is a property of the file, set once; a pool sets it on every open.
                    _ = try queue.writeWithoutTransaction { db in
                        if try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") != "wal" {
                            throw StoreError.unusable(path: path, reason: "the database cannot use WAL mode")
                        }
                    }
                }
                // SQLite's automatic checkpoint is off: `write` keeps the WAL short itself (see
                // there). Every commit is synced (FULL): what a command reports done survives a
                // power cut. A 24 MB page cache: a million-item import peaks under 80 MB, and
                // was faster with it than with 64 MB (6.9 s against 7.6 s for 100k items).
                try queue.writeWithoutTransaction { db in
                    try db.execute(
                        sql: """
                            \(CommitDurability.synced.pragma); PRAGMA wal_autocheckpoint = 0; PRAGMA cache_size = -24576
                            """)
                }
                writer = queue
            }
        } catch {
            throw unusable(path: path, error)
        }
        let database = AppDatabase(path: path, writer: writer, environment: environment, ownedDirectory: nil)
        if migrationsDue {
            try database.withStoreErrors {
                let applied = try writer.read { try migrator.appliedIdentifiers($0) }
                guard applied != Set(migrator.migrations) else { return }
                let isUpgrade = !applied.isEmpty
                if isUpgrade { beforeUpgrade?() }
                try migrator.migrate(writer)
                // A migration may rewrite much of a large store (an index over a million items
                // is tens of megabytes): fold it into the file now, rather than leave every read
                // to look through a long WAL until the next write. A reader elsewhere may keep
                // the checkpoint from finishing; the next write tries again.
                _ = try? writer.writeWithoutTransaction { try $0.checkpoint(.truncate) }
            }
        }
        return database
    }

    /// A fresh store in a new directory under the system's temporary folder, removed when the
    /// returned instance goes away. For tests and benchmarks: a real file, real WAL, real FTS.
    public static func temporary(environment: StoreEnvironment = .deterministic()) throws(StoreError) -> AppDatabase {
        let directory = NSTemporaryDirectory() + "quire-store-\(UUID().uuidString)"
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw .unusable(
                path: directory, reason: "cannot create a temporary directory: \(error.localizedDescription)")
        }
        let path = directory + "/quire.db"
        let opened = try open(path: path, environment: environment)
        return AppDatabase(path: path, writer: opened.writer, environment: environment, ownedDirectory: directory)
    }

    /// Refuses files that are not SQLite before SQLite touches them, so that a wrong path never
    /// gets a WAL header or a schema written into someone's document.
    private static func checkHeader(path: String) throws(StoreError) {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            if FileManager.default.fileExists(atPath: path) {
                throw .unusable(path: path, reason: "the file cannot be read (check its permissions)")
            }
            return
        }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        if header.isEmpty { return }
        if header != Data("SQLite format 3\0".utf8) {
            throw .unusable(path: path, reason: "the file is not an SQLite database")
        }
    }

    /// Copies the WAL into the database file and closes every connection now, instead of when
    /// the last reference goes away. Any later call fails.
    ///
    /// The explicit checkpoint matters: the pool closes its writer before its readers, so the
    /// last connection to close may be a read-only one that cannot checkpoint.
    public func close() throws(StoreError) {
        try withStoreErrors {
            try versionReader.close()
            _ = try writer.writeWithoutTransaction { try $0.checkpoint(.truncate) }
            try writer.close()
        }
    }

    // MARK: - Error mapping

    /// Maps SQLite's errors to a one-line reason a person can act on.
    static func unusable(path: String, _ error: any Error) -> StoreError {
        if let storeError = error as? StoreError { return storeError }
        guard let databaseError = error as? DatabaseError else {
            return .unusable(path: path, reason: String(describing: error))
        }
        let reason: String
        switch databaseError.resultCode {
        case .SQLITE_NOTADB: reason = "the file is not an SQLite database"
        case .SQLITE_CORRUPT: reason = "the database file is corrupt (\(databaseError.message ?? "malformed"))"
        case .SQLITE_CANTOPEN: reason = "the file cannot be opened (check that its folder exists and is writable)"
        case .SQLITE_READONLY: reason = "the file or its folder is read-only"
        case .SQLITE_PERM, .SQLITE_AUTH: reason = "permission denied"
        case .SQLITE_FULL: reason = "the disk is full"
        case .SQLITE_IOERR: reason = "an input/output error occurred (\(databaseError.message ?? "disk error"))"
        case .SQLITE_BUSY, .SQLITE_LOCKED: reason = "another process holds the database locked; try again"
        default: reason = databaseError.message ?? "\(databaseError.resultCode)"
        }
        return .unusable(path: path, reason: reason)
    }

    /// Runs `body`, turning every error that is not already a `StoreError` into `.unusable`.
    func withStoreErrors<T>(_ body: () throws -> T) throws(StoreError) -> T {
        do {
            return try body()
        } catch let error as StoreError {
            throw error
        } catch let error as ValidationError {
            throw .invalid(error)
        } catch {
            throw Self.unusable(path: path, error)
        }
    }

    /// A read (on one of the pool's reader connections), with errors mapped.
    func read<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        try withStoreErrors { try writer.read(body) }
    }

    /// A write transaction on the writer connection, with errors mapped.
    ///
    /// On a single connection (a one-shot command), once the WAL has grown past
    /// `walCheckpointBytes` it is folded back into the file and emptied. Such a process never
    /// closes its connection, so the next one starts with SQLite's recovery, which reads the
    /// whole WAL and forgets how much of it was already copied: SQLite's own checkpoint would
    /// then copy everything again at every command, and the WAL would never restart.
    /// Checkpointing at every write instead would cost four fsyncs per command. With
    /// `synchronous = FULL` each commit is on the disk when the command says it is done (one
    /// fsync of the WAL), so a power cut right after `quire add` still keeps the item.
    /// A `.replayable` write commits without its own fsync (see `CommitDurability`); the
    /// connection is back to FULL before anything else writes on it.
    func write<T>(_ durability: CommitDurability = .synced, _ body: (Database) throws -> T) throws(StoreError) -> T {
        try withStoreErrors {
            let result = try writer.writeWithoutTransaction { db in
                let relaxed = durability != .synced
                if relaxed { try db.execute(sql: durability.pragma) }
                var result: T?
                do {
                    try db.inTransaction {
                        result = try body(db)
                        try Self.assignShortIDs(in: db)
                        try Self.readStaleLinks(in: db)
                        try Self.dropSentPurges(in: db)
                        return .commit
                    }
                } catch {
                    // The transaction's own error is the one to report; setting a pragma that
                    // worked a moment ago does not fail short of a closed connection.
                    if relaxed { try? db.execute(sql: CommitDurability.synced.pragma) }
                    throw error
                }
                if relaxed { try db.execute(sql: CommitDurability.synced.pragma) }
                return result!
            }
            if isSingleConnection, Self.fileSize(path + "-wal") > Self.walCheckpointBytes {
                // The change is committed whatever happens here: a checkpoint that cannot finish
                // (another process reading) is left for a later command.
                _ = try? writer.writeWithoutTransaction { try $0.checkpoint(.truncate) }
            }
            return result
        }
    }

    /// How large a one-shot command lets the WAL grow before emptying it (see `write`).
    static let walCheckpointBytes: Int64 = 1 << 20

    /// The size of a file in bytes, 0 when it does not exist.
    static func fileSize(_ path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : 0
    }

    /// The current instant at the store's precision.
    func now() -> Date { StoreTime.truncated(environment.now()) }

    // MARK: - Change detection across processes

    /// SQLite's `PRAGMA data_version` on a connection of its own: it changes whenever any
    /// other connection (this process's writer, the CLI in another terminal, a second TUI)
    /// commits. Cheap enough to poll a few times a second.
    public func dataVersion() throws(StoreError) -> Int {
        try withStoreErrors { try versionReader.dataVersion(path: path) }
    }

    /// A count of the commits that may change what a screen shows: every write to a table
    /// not in `tablesNotShown` adds to it (triggers, `v27 shown version`). A poll reads it
    /// when the data version moved, to tell an item's change from an upload's progress.
    public func shownVersion() throws(StoreError) -> Int {
        try withStoreErrors { try versionReader.shownVersion(path: path) }
    }

    /// The tables whose writes leave `shownVersion()` as it is: sync's own records, which the
    /// sync status screen and an item's files read again at every change; the editor's drafts;
    /// and tables kept by triggers from tables that count. Any other table must add to it (a
    /// test checks).
    public static let tablesNotShown: Set<String> = [
        // Sync's own records.
        "syncMeta", "syncEvent", "attachmentTransfer",
        // The editor's unsaved text, written 300 ms after each key: read when the app starts,
        // to offer it back, and by no screen after.
        "draft",
        // Kept by triggers on `item` and `outbox`.
        "itemCode", "itemTally", "outboxTally", "itemTag", "itemTitle", "itemSearch", "itemHeadSearch",
        // The counter itself, and the migrations' record.
        "shownVersion", "grdb_migrations",
    ]
}

/// Owns the read-only connection behind `dataVersion()` and `shownVersion()`; the lock guards
/// its lazy opening.
private final class VersionReader: @unchecked Sendable {
    private let lock = NSLock()
    private var queue: DatabaseQueue?

    func close() throws {
        lock.lock()
        defer { lock.unlock() }
        try queue?.close()
        queue = nil
    }

    func dataVersion(path: String) throws -> Int {
        try read(path: path) { db in try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0 }
    }

    func shownVersion(path: String) throws -> Int {
        try read(path: path) { db in try Int.fetchOne(db, sql: "SELECT n FROM shownVersion") ?? 0 }
    }

    private func read(path: String, _ body: (Database) throws -> Int) throws -> Int {
        lock.lock()
        defer { lock.unlock() }
        if queue == nil {
            var configuration = Configuration()
            configuration.readonly = true
            configuration.busyMode = .timeout(5)
            configuration.label = "Quire.dataVersion"
            queue = try DatabaseQueue(path: path, configuration: configuration)
        }
        return try queue!.inDatabase(body)
    }
}
