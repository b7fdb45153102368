import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#endif

/// Online backup and restore of the server's SQLite database.
///
/// Copying the database file while the server runs is not a backup: in WAL mode recent
/// commits live in the `-wal` file, and a copy taken mid-write can be torn. `VACUUM INTO`
/// writes the database as one read transaction sees it, while writers go on, so the copy
/// holds every commit made before it started and none half.
public enum SQLiteBackup {
    /// What a backup or restore found in the copy.
    public struct Summary: Sendable, Equatable {
        public let users: Int
        public let items: Int
        public let epoch: String
    }

    /// Writes a consistent copy of the database at `database` to `output`, which must not
    /// exist; the copy is checked (`PRAGMA integrity_check`) before it is put in place.
    public static func backup(database: String, to output: String) throws -> Summary {
        guard FileManager.default.fileExists(atPath: database) else {
            throw ConfigurationError("no database at '\(database)'")
        }
        guard !FileManager.default.fileExists(atPath: output) else {
            throw ConfigurationError("'\(output)' already exists; give a new file name")
        }
        let partial = output + ".partial-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: partial) }
        do {
            let source = try DatabaseQueue(path: database, configuration: readOnly())
            try source.inDatabase { db in try db.execute(sql: "VACUUM INTO ?", arguments: [partial]) }
            try source.close()
            // A file of its own: no -wal beside it to lose when it is copied elsewhere.
            let copy = try DatabaseQueue(path: partial)
            try copy.inDatabase { db in try db.execute(sql: "PRAGMA journal_mode = DELETE") }
            try copy.close()
        } catch {
            throw ConfigurationError("cannot back up '\(database)': \(error)")
        }
        let summary = try check(partial)
        try durablyRename(partial, to: output)
        return summary
    }

    /// Installs the backup at `backup` as the database at `database` with a new epoch, in one
    /// step: devices then resync and send again what the backup lacks.
    ///
    /// Refuses while any process has the database open. The database it replaces is kept
    /// beside it as `<database>.replaced-<time>` (with its `-wal`), never deleted.
    public static func restore(backup: String, into database: String, now: Date = Date()) throws -> (
        Summary, replaced: String?
    ) {
        guard FileManager.default.fileExists(atPath: backup) else {
            throw ConfigurationError("no backup at '\(backup)'")
        }
        _ = try check(backup)
        let lock = try DatabaseLock(database: database, exclusive: true)
        let staging = database + ".restoring-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: staging) }
        do {
            try? FileManager.default.removeItem(atPath: staging)
            try FileManager.default.copyItem(atPath: backup, toPath: staging)
            let copy = try DatabaseQueue(path: staging)
            // A backup from an older server is brought up to this one's schema first, so that
            // the lineage of its epoch can be recorded as the new epoch starts.
            try SQLiteStore.migrator.migrate(copy)
            try copy.inDatabase { db in
                try db.execute(sql: "PRAGMA journal_mode = DELETE")
                try SQLiteStore.renewEpoch(db, to: makeEpoch(), now: now)
            }
            try copy.close()
        } catch {
            throw ConfigurationError("cannot prepare the restore from '\(backup)': \(error)")
        }
        let summary = try check(staging)

        var replaced: String?
        if FileManager.default.fileExists(atPath: database) {
            let stamp = ISO8601DateFormatter().string(from: now).replacingOccurrences(of: ":", with: "")
            let aside = database + ".replaced-" + stamp
            try durablyRename(database, to: aside)
            if FileManager.default.fileExists(atPath: database + "-wal") {
                try durablyRename(database + "-wal", to: aside + "-wal")
            }
            try? FileManager.default.removeItem(atPath: database + "-shm")
            replaced = aside
        }
        try durablyRename(staging, to: database)
        withExtendedLifetime(lock) {}
        return (summary, replaced)
    }

    /// Opens the file read-only, runs `PRAGMA integrity_check` and reads what it holds.
    static func check(_ path: String) throws -> Summary {
        do {
            let queue = try DatabaseQueue(path: path, configuration: readOnly())
            defer { try? queue.close() }
            return try queue.inDatabase { db in
                let verdict = try String.fetchAll(db, sql: "PRAGMA integrity_check")
                guard verdict == ["ok"] else {
                    throw ConfigurationError("'\(path)' is damaged: \(verdict.prefix(3).joined(separator: "; "))")
                }
                guard try db.tableExists("meta"), try db.tableExists("items"), try db.tableExists("users") else {
                    throw ConfigurationError("'\(path)' is not a quire-server database")
                }
                try SchemaVersion.check(found: try SQLiteStore.schemaVersion(db), database: "'\(path)'")
                return Summary(
                    users: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM users") ?? 0,
                    items: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM items WHERE deleted = 0") ?? 0,
                    epoch: try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'epoch'") ?? "")
            }
        } catch let error as ConfigurationError {
            throw error
        } catch {
            throw ConfigurationError("cannot read '\(path)' as a SQLite database: \(error)")
        }
    }

    private static func readOnly() -> Configuration {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(10)
        return configuration
    }

    /// Renames and flushes the folder, so the new name survives a power cut.
    private static func durablyRename(_ from: String, to: String) throws {
        guard rename(from, to) == 0 else {
            throw ConfigurationError("cannot rename '\(from)' to '\(to)': \(String(cString: strerror(errno)))")
        }
        let folder = (to as NSString).deletingLastPathComponent
        let descriptor = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if descriptor >= 0 {
            fsync(descriptor)
            close(descriptor)
        }
    }
}
