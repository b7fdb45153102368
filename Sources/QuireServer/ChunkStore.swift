import Foundation
import QuireProtocol

/// Where the server keeps attachment chunks and file manifests: a small protocol, so that an
/// object store can stand in later. SQLite keeps them in the server's own database (so a
/// backup holds them), PostgreSQL in its tables.
///
/// Everything is per account: a chunk one account stored is unknown to every other.
protocol ChunkStore: Sendable {
    /// Those of `hashes` this account does not hold, in their order (each once).
    func missingChunks(user: UserID, among hashes: [String]) async throws -> [String]
    /// Stores a chunk whose bytes were checked against `hash`; a chunk already there changes
    /// nothing. Answers whether it was new.
    func putChunk(user: UserID, hash: String, bytes: [UInt8], now: Date) async throws -> Bool
    /// A chunk's bytes, nil when this account has no such chunk.
    func chunk(user: UserID, hash: String) async throws -> [UInt8]?
    /// Records a file's manifest when every chunk it lists is stored, and its claims (the
    /// manifest's `items`; none pins the file for ever); answers the chunks that are not stored
    /// (and writes nothing then). Committing the same file again adds or renews claims only.
    func commitFile(user: UserID, hash: String, manifest: FileManifest, now: Date) async throws -> [String]
    /// A committed file's manifest, nil when there is none.
    func file(user: UserID, hash: String) async throws -> FileManifest?
    /// Bytes of chunks this account stores (its attachment quota's use).
    func attachmentBytes(user: UserID) async throws -> Int64
    /// Removes chunks no committed file lists that were stored before `cutoff` (uploads
    /// abandoned half-way); answers how many went.
    func purgeChunks(before cutoff: Date) async throws -> Int
    /// Removes the files no item can reference any more (`FileClaimSQL.purgeable`), with their
    /// claims and chunk lists; their chunks go with `purgeChunks`. Answers how many files went.
    func purgeFiles(before cutoff: Date) async throws -> Int
    /// Chunks and their bytes, for all accounts (`/metrics`).
    func chunkTotals() async throws -> (chunks: Int64, bytes: Int64)
}
