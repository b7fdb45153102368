import Foundation
import NIOCore
import PostgresNIO
import QuireProtocol

/// Chunks and manifests on PostgreSQL, in the same shape as SQLite's (`SQLiteStore+Chunks`).
extension PostgresStore: ChunkStore {
    /// Schema 5: attachment chunks and file manifests, per account.
    static let chunkSchema = [
        """
        CREATE TABLE IF NOT EXISTS chunks (
            user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            hash TEXT COLLATE "C" NOT NULL,
            size BIGINT NOT NULL CHECK (size >= 0),
            bytes BYTEA NOT NULL,
            created_at BIGINT NOT NULL,
            PRIMARY KEY (user_id, hash))
        """,
        """
        CREATE TABLE IF NOT EXISTS files (
            user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            hash TEXT COLLATE "C" NOT NULL,
            size BIGINT NOT NULL CHECK (size >= 0),
            chunks TEXT NOT NULL,
            created_at BIGINT NOT NULL,
            PRIMARY KEY (user_id, hash))
        """,
        """
        CREATE TABLE IF NOT EXISTS file_chunks (
            user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            chunk TEXT COLLATE "C" NOT NULL,
            file TEXT COLLATE "C" NOT NULL,
            PRIMARY KEY (user_id, chunk, file))
        """,
    ]

    /// Schema 8: the items that claim each file; files committed before are pinned.
    static let claimSchema = [
        FileClaimSQL.claimsTable(),
        "ALTER TABLE files ADD COLUMN IF NOT EXISTS pinned INTEGER NOT NULL DEFAULT 1",
    ]

    /// Commits take it shared and the file purge exclusively: a purge never removes a file, or
    /// its chunks, between a commit's check that the chunks are there and its claim.
    private static let fileLock: Int64 = 7_345_102_232

    func missingChunks(user: UserID, among hashes: [String]) async throws -> [String] {
        var unique: [String] = []
        var seen = Set<String>()
        for hash in hashes where seen.insert(hash).inserted { unique.append(hash) }
        guard !unique.isEmpty else { return [] }
        let rows = try await client.query(
            "SELECT hash FROM chunks WHERE user_id = \(user.rawValue) AND hash = ANY(\(unique))", logger: logger)
        var held = Set<String>()
        for try await hash in rows.decode(String.self) { held.insert(hash) }
        return unique.filter { !held.contains($0) }
    }

    func putChunk(user: UserID, hash: String, bytes: [UInt8], now: Date) async throws -> Bool {
        let seconds = Int64(now.timeIntervalSince1970)
        let rows = try await client.query(
            """
            INSERT INTO chunks (user_id, hash, size, bytes, created_at)
            VALUES (\(user.rawValue), \(hash), \(Int64(bytes.count)), \(ByteBuffer(bytes: bytes)), \(seconds))
            ON CONFLICT (user_id, hash) DO NOTHING RETURNING 1
            """, logger: logger)
        var inserted = false
        for try await _ in rows.decode(Int32.self) { inserted = true }
        return inserted
    }

    func chunk(user: UserID, hash: String) async throws -> [UInt8]? {
        let rows = try await client.query(
            "SELECT bytes FROM chunks WHERE user_id = \(user.rawValue) AND hash = \(hash)", logger: logger)
        for try await buffer in rows.decode(ByteBuffer.self) { return Array(buffer.readableBytesView) }
        return nil
    }

    func commitFile(user: UserID, hash: String, manifest: FileManifest, now: Date) async throws -> [String] {
        let list = String(decoding: try JSONEncoder().encode(manifest.chunks), as: UTF8.self)
        let seconds = Int64(now.timeIntervalSince1970)
        let unique = Array(Set(manifest.chunks))
        let claims = Array(Set(manifest.items ?? []))
        let pinned = claims.isEmpty ? 1 : 0
        return try await transaction { connection in
            try await connection.query("SELECT pg_advisory_xact_lock_shared(\(Self.fileLock))", logger: self.logger)
            let rows = try await connection.query(
                "SELECT hash FROM chunks WHERE user_id = \(user.rawValue) AND hash = ANY(\(unique))",
                logger: self.logger)
            var held = Set<String>()
            for try await chunk in rows.decode(String.self) { held.insert(chunk) }
            guard held.count == unique.count else {
                var seen = Set<String>()
                return manifest.chunks.filter { !held.contains($0) && seen.insert($0).inserted }
            }
            try await connection.query(
                """
                INSERT INTO files (user_id, hash, size, chunks, created_at, pinned)
                VALUES (\(user.rawValue), \(hash), \(manifest.size), \(list), \(seconds), \(pinned))
                ON CONFLICT (user_id, hash) DO UPDATE SET pinned = GREATEST(files.pinned, excluded.pinned)
                """, logger: self.logger)
            try await connection.query(
                """
                INSERT INTO file_chunks (user_id, chunk, file)
                SELECT \(user.rawValue), chunk, \(hash) FROM unnest(\(unique)::text[]) AS chunk
                ON CONFLICT DO NOTHING
                """, logger: self.logger)
            try await connection.query(
                """
                INSERT INTO file_claims (user_id, file, item, claimed_at)
                SELECT \(user.rawValue), \(hash), item, \(seconds) FROM unnest(\(claims)::text[]) AS item
                ON CONFLICT (user_id, file, item) DO UPDATE SET claimed_at = excluded.claimed_at
                """, logger: self.logger)
            return []
        }
    }

    func file(user: UserID, hash: String) async throws -> FileManifest? {
        let rows = try await client.query(
            "SELECT size, chunks FROM files WHERE user_id = \(user.rawValue) AND hash = \(hash)", logger: logger)
        for try await (size, chunks) in rows.decode((Int64, String).self) {
            return FileManifest(size: size, chunks: try JSONDecoder().decode([String].self, from: Data(chunks.utf8)))
        }
        return nil
    }

    func attachmentBytes(user: UserID) async throws -> Int64 {
        let rows = try await client.query(
            "SELECT COALESCE(SUM(size), 0)::bigint FROM chunks WHERE user_id = \(user.rawValue)", logger: logger)
        for try await bytes in rows.decode(Int64.self) { return bytes }
        return 0
    }

    func purgeChunks(before cutoff: Date) async throws -> Int {
        let seconds = Int64(cutoff.timeIntervalSince1970)
        return try await transaction { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(Self.fileLock))", logger: self.logger)
            let rows = try await connection.query(
                """
                WITH gone AS (
                    DELETE FROM chunks WHERE created_at < \(seconds) AND NOT EXISTS (
                        SELECT 1 FROM file_chunks WHERE file_chunks.user_id = chunks.user_id AND file_chunks.chunk = chunks.hash)
                    RETURNING 1)
                SELECT COUNT(*)::bigint FROM gone
                """, logger: self.logger)
            for try await count in rows.decode(Int64.self) { return Int(count) }
            return 0
        }
    }

    func purgeFiles(before cutoff: Date) async throws -> Int {
        let steps = FileClaimSQL.purgeSteps(before: Int64(cutoff.timeIntervalSince1970))
        return try await transaction { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(Self.fileLock))", logger: self.logger)
            var count = 0
            let rows = try await connection.query(PostgresQuery(unsafeSQL: steps.count), logger: self.logger)
            for try await found in rows.decode(Int64.self) { count = Int(found) }
            guard count > 0 else { return 0 }
            for removal in steps.removals {
                try await connection.query(PostgresQuery(unsafeSQL: removal), logger: self.logger)
            }
            return count
        }
    }

    func chunkTotals() async throws -> (chunks: Int64, bytes: Int64) {
        let rows = try await client.query(
            "SELECT COUNT(*)::bigint, COALESCE(SUM(size), 0)::bigint FROM chunks", logger: logger)
        for try await (count, bytes) in rows.decode((Int64, Int64).self) { return (count, bytes) }
        return (0, 0)
    }
}
