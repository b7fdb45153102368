import Foundation
import GRDB
import QuireProtocol

/// Chunks and manifests in the server's SQLite database: a backup of the file holds them.
extension SQLiteStore: ChunkStore {
    /// The tables of "v5 attachment chunks". Chunks are blobs of about 1 MiB in a rowid table
    /// (SQLite keeps large rows in overflow pages either way; WITHOUT ROWID suits small rows),
    /// with the account and hash unique. `file_chunks` says which chunks committed files list,
    /// so a purge can find the ones no file needs.
    static let chunkTablesSQL = """
        CREATE TABLE chunks (
            user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            hash TEXT NOT NULL,
            size INTEGER NOT NULL CHECK (size >= 0),
            bytes BLOB NOT NULL,
            created_at INTEGER NOT NULL,
            UNIQUE (user_id, hash));
        CREATE TABLE files (
            user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            hash TEXT NOT NULL,
            size INTEGER NOT NULL CHECK (size >= 0),
            chunks TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            PRIMARY KEY (user_id, hash)) WITHOUT ROWID;
        CREATE TABLE file_chunks (
            user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            chunk TEXT NOT NULL,
            file TEXT NOT NULL,
            PRIMARY KEY (user_id, chunk, file)) WITHOUT ROWID;
        """

    func missingChunks(user: UserID, among hashes: [String]) async throws -> [String] {
        try await pool.read { db in
            var seen = Set<String>()
            var missing: [String] = []
            let statement = try db.cachedStatement(sql: "SELECT 1 FROM chunks WHERE user_id = ? AND hash = ?")
            for hash in hashes where seen.insert(hash).inserted {
                if try Bool.fetchOne(statement, arguments: [user.rawValue, hash]) == nil { missing.append(hash) }
            }
            return missing
        }
    }

    func putChunk(user: UserID, hash: String, bytes: [UInt8], now: Date) async throws -> Bool {
        try await pool.write { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO chunks (user_id, hash, size, bytes, created_at) VALUES (?, ?, ?, ?, ?)",
                arguments: [user.rawValue, hash, bytes.count, Data(bytes), Int64(now.timeIntervalSince1970)])
            return db.changesCount > 0
        }
    }

    func chunk(user: UserID, hash: String) async throws -> [UInt8]? {
        try await pool.read { db in
            try Data.fetchOne(
                db, sql: "SELECT bytes FROM chunks WHERE user_id = ? AND hash = ?", arguments: [user.rawValue, hash]
            ).map { Array($0) }
        }
    }

    func commitFile(user: UserID, hash: String, manifest: FileManifest, now: Date) async throws -> [String] {
        try await pool.write { db in
            let probe = try db.cachedStatement(sql: "SELECT 1 FROM chunks WHERE user_id = ? AND hash = ?")
            var missing: [String] = []
            for chunk in Set(manifest.chunks) {
                if try Bool.fetchOne(probe, arguments: [user.rawValue, chunk]) == nil { missing.append(chunk) }
            }
            guard missing.isEmpty else { return manifest.chunks.filter(Set(missing).contains) }
            let list = String(decoding: try JSONEncoder().encode(manifest.chunks), as: UTF8.self)
            let seconds = Int64(now.timeIntervalSince1970)
            let claims = manifest.items ?? []
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO files (user_id, hash, size, chunks, created_at, pinned)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [user.rawValue, hash, manifest.size, list, seconds, claims.isEmpty])
            if db.changesCount > 0 {
                let link = try db.cachedStatement(
                    sql: "INSERT OR IGNORE INTO file_chunks (user_id, chunk, file) VALUES (?, ?, ?)")
                for chunk in Set(manifest.chunks) { try link.execute(arguments: [user.rawValue, chunk, hash]) }
            } else if claims.isEmpty {
                try db.execute(
                    sql: "UPDATE files SET pinned = 1 WHERE user_id = ? AND hash = ?", arguments: [user.rawValue, hash])
            }
            let claim = try db.cachedStatement(
                sql: """
                    INSERT INTO file_claims (user_id, file, item, claimed_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT (user_id, file, item) DO UPDATE SET claimed_at = excluded.claimed_at
                    """)
            for item in Set(claims) { try claim.execute(arguments: [user.rawValue, hash, item, seconds]) }
            return []
        }
    }

    func file(user: UserID, hash: String) async throws -> FileManifest? {
        try await pool.read { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT size, chunks FROM files WHERE user_id = ? AND hash = ?",
                    arguments: [user.rawValue, hash])
            else { return nil }
            let text: String = row[1]
            return FileManifest(size: row[0], chunks: try JSONDecoder().decode([String].self, from: Data(text.utf8)))
        }
    }

    func attachmentBytes(user: UserID) async throws -> Int64 {
        try await pool.read { db in
            try Int64.fetchOne(
                db, sql: "SELECT coalesce(SUM(size), 0) FROM chunks WHERE user_id = ?", arguments: [user.rawValue]) ?? 0
        }
    }

    func purgeChunks(before cutoff: Date) async throws -> Int {
        try await pool.write { db in
            try db.execute(
                sql: """
                    DELETE FROM chunks WHERE created_at < ? AND NOT EXISTS (
                        SELECT 1 FROM file_chunks WHERE file_chunks.user_id = chunks.user_id AND file_chunks.chunk = chunks.hash)
                    """, arguments: [Int64(cutoff.timeIntervalSince1970)])
            return db.changesCount
        }
    }

    func purgeFiles(before cutoff: Date) async throws -> Int {
        let steps = FileClaimSQL.purgeSteps(before: Int64(cutoff.timeIntervalSince1970))
        return try await pool.write { db in
            let count = try Int.fetchOne(db, sql: steps.count) ?? 0
            guard count > 0 else { return 0 }
            for removal in steps.removals { try db.execute(sql: removal) }
            return count
        }
    }

    func chunkTotals() async throws -> (chunks: Int64, bytes: Int64) {
        try await pool.read { db in
            let row = try Row.fetchOne(db, sql: "SELECT count(*), coalesce(SUM(size), 0) FROM chunks")
            return (row?[0] ?? 0, row?[1] ?? 0)
        }
    }
}
