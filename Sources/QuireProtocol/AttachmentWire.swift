import QuireCore

/// The attachment endpoints: a file's bytes travel apart from its item, in chunks addressed by
/// their hash (SPEC "Notes, tasks, links and attachments").
///
/// An upload asks which chunks the server lacks (`POST chunksMissingPath`, which also refuses
/// a file too large for the server or the account up front), `PUT`s only those, then commits
/// the file's manifest (`PUT filesPath/HASH`). A download reads the manifest, then each chunk.
/// Chunks and files belong to one account: the same bytes from two accounts are two copies,
/// so no account learns what another stores.
public enum AttachmentProtocol {
    /// `POST` a `ChunkQuery`: answers a `ChunkQueryAnswer`, or 413 when the file cannot be taken.
    public static let chunksMissingPath = "/v1/chunks/missing"
    /// `PUT /v1/chunks/HASH` with the chunk's bytes (`application/octet-stream`); `GET` reads them.
    public static let chunksPath = "/v1/chunks"
    /// `PUT /v1/files/HASH` with a `FileManifest` commits a file; `GET` reads the manifest.
    public static let filesPath = "/v1/files"

    /// The size of the pieces a device cuts a file into.
    public static let chunkSize = 1 << 20
    /// The largest chunk a server takes (room for a sealed chunk's overhead and other clients).
    public static let maxChunkBytes = 4 << 20
    /// The most chunks one query or manifest may list: a 100 GiB file in 1 MiB chunks.
    public static let maxChunksPerFile = 100 * 1024

    /// Whether `text` is a chunk or file address: 64 lowercase hex digits.
    public static func isAddress(_ text: some StringProtocol) -> Bool {
        AttachedFile.isHash(String(text))
    }
}

/// `POST /v1/chunks/missing`: which of a file's chunks the server lacks.
public struct ChunkQuery: Codable, Hashable, Sendable {
    /// The whole file's size in bytes, checked against the server's limit and the account's
    /// quota before anything is sent.
    public var size: Int64
    /// The file's chunk addresses, in order.
    public var chunks: [String]

    public init(size: Int64, chunks: [String]) {
        self.size = size
        self.chunks = chunks
    }
}

/// The answer to a `ChunkQuery`.
public struct ChunkQueryAnswer: Codable, Hashable, Sendable {
    /// The addresses the server does not hold for this account, in the query's order.
    public var missing: [String]

    public init(missing: [String]) { self.missing = missing }
}

/// A file as the server keeps it: its size and its chunks in order.
///
/// A commit also carries `items`, the ids of the items that refer to the file (its claims):
/// the server, which cannot read an encrypted item, purges a file once every item that claimed
/// it is gone for good and the retention has passed since its last claim. A commit without
/// `items` (an older device) keeps the file for ever. The server never answers `items`.
public struct FileManifest: Codable, Hashable, Sendable {
    public var size: Int64
    public var chunks: [String]
    public var items: [String]?

    public init(size: Int64, chunks: [String], items: [String]? = nil) {
        self.size = size
        self.chunks = chunks
        self.items = items
    }

    /// The most item ids one commit may claim the file for.
    public static let maxClaims = 1000
}
