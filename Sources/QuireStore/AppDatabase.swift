import Foundation
import GRDB
import QuireCore

/// The one gateway to Quire's local store: an SQLite database in WAL mode behind a GRDB
/// `DatabasePool`, so the sync worker can write while the UI reads.
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

    /// The database file.
    public let path: String
    let pool: DatabasePool
    let environment: StoreEnvironment
    /// The dedicated connection `dataVersion()` asks; opened on first use.
    private let versionReader = VersionReader()
    /// A directory this instance made and removes when it goes away (temporary stores only).
    private let ownedDirectory: String?

    private init(path: String, pool: DatabasePool, environment: StoreEnvironment, ownedDirectory: String?) {
        self.path = path
        self.pool = pool
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
    public static func open(path: String, environment: StoreEnvironment = .live) throws(StoreError) -> AppDatabase {
        try checkHeader(path: path)
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.foreignKeysEnabled = true
        configuration.maximumReaderCount = 4
        let migrator = Self.migrator(environment: environment)
        // An existing file is checked first on a plain connection that never writes: opening a
        // pool may write (GRDB makes sure a WAL file exists), and a file we refuse must be left
        // exactly as it was. The probe stays open until the pool is, so that closing it never
        // checkpoints the WAL on its own.
        var probe: DatabaseQueue?
        var migrationsDue = true
        if FileManager.default.fileExists(atPath: path) {
            do {
                let queue = try DatabaseQueue(path: path, configuration: configuration)
                probe = queue
                migrationsDue = try queue.inDatabase { db in
                    _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master")
                    if try migrator.hasBeenSuperseded(db) {
                        throw StoreError.unusable(path: path, reason: "it was written by a newer version of Quire")
                    }
                    return try !migrator.hasCompletedMigrations(db)
                }
            } catch {
                throw unusable(path: path, error)
            }
        }
        defer { try? probe?.close() }
        let pool: DatabasePool
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
        } catch {
            throw unusable(path: path, error)
        }
        let database = AppDatabase(path: path, pool: pool, environment: environment, ownedDirectory: nil)
        if migrationsDue {
            try database.withStoreErrors { try migrator.migrate(pool) }
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
            throw .unusable(path: directory, reason: "cannot create a temporary directory: \(error.localizedDescription)")
        }
        let path = directory + "/quire.db"
        let opened = try open(path: path, environment: environment)
        return AppDatabase(path: path, pool: opened.pool, environment: environment, ownedDirectory: directory)
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
            try pool.writeWithoutTransaction { try $0.checkpoint(.truncate) }
            try pool.close()
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

    /// A read on one of the pool's reader connections, with errors mapped.
    func read<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        try withStoreErrors { try pool.read(body) }
    }

    /// A write transaction on the writer connection, with errors mapped.
    func write<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        try withStoreErrors { try pool.write(body) }
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
}

/// Owns the read-only connection behind `dataVersion()`; the lock guards its lazy opening.
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
        lock.lock()
        defer { lock.unlock() }
        if queue == nil {
            var configuration = Configuration()
            configuration.readonly = true
            configuration.busyMode = .timeout(5)
            configuration.label = "Quire.dataVersion"
            queue = try DatabaseQueue(path: path, configuration: configuration)
        }
        return try queue!.inDatabase { db in
            try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0
        }
    }
}
