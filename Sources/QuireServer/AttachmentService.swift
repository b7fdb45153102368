import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import QuireCore
import QuireProtocol

/// The attachment endpoints (`AttachmentProtocol`): chunks and file manifests, under the same
/// tokens, rate limits and error bodies as sync.
///
/// A file too large for the server, or for what the account has left, is refused up front,
/// when the device asks which chunks are missing, with 413 and a message the device shows on
/// the attachment (and does not retry): no byte of it is sent first.
struct AttachmentService: Sendable {
    let sync: SyncService
    let chunks: any ChunkStore
    let limits: RequestLimits
    let metrics: ServerMetrics
    let now: @Sendable () -> Date

    /// `POST /v1/chunks/missing`.
    func missing(_ request: Request) async throws -> Response {
        let owner = try await sync.authenticate(request)
        let query: ChunkQuery = try decode(try await sync.readBody(request))
        try check(addresses: query.chunks)
        try refuseOversized(query.size)
        let missing = try await sync.guarded { try await chunks.missingChunks(user: owner.user, among: query.chunks) }
        if limits.attachmentQuotaBytes > 0, !missing.isEmpty {
            // What the upload adds: the whole file when nothing of it is here, else at most
            // a chunk's size for each missing chunk.
            let adding =
                missing.count == Set(query.chunks).count
                ? query.size : min(query.size, Int64(missing.count) * Int64(AttachmentProtocol.chunkSize))
            try await refuseOverQuota(user: owner.user, adding: adding)
        }
        return try json(ChunkQueryAnswer(missing: missing))
    }

    /// `PUT /v1/chunks/HASH`: stores a chunk whose bytes hash to its address. An encrypted
    /// account's addresses are keyed hashes the server has no key to check: its devices check
    /// every chunk they read (by the key and by opening it), and its chunks are its own.
    func putChunk(_ request: Request, hash: String) async throws -> Response {
        let owner = try await sync.authenticate(request)
        try check(addresses: [hash])
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }),
            declared > AttachmentProtocol.maxChunkBytes
        {
            throw APIError.tooLarge(
                "the chunk is \(declared) bytes; the limit is \(AttachmentProtocol.maxChunkBytes) bytes")
        }
        let bytes = try await sync.readBody(request)
        guard bytes.count <= AttachmentProtocol.maxChunkBytes else {
            throw APIError.tooLarge(
                "the chunk is \(bytes.count) bytes; the limit is \(AttachmentProtocol.maxChunkBytes) bytes")
        }
        let encrypted = try await sync.guarded { try await sync.store.keyRing(user: owner.user) } != nil
        guard encrypted || ContentHash.sha256Hex(bytes: bytes) == hash else {
            throw APIError.badRequest("the chunk's bytes do not hash to its address \(hash.prefix(12))…; send it again")
        }
        let known = try await sync.guarded { try await chunks.missingChunks(user: owner.user, among: [hash]) }.isEmpty
        if !known { try await refuseOverQuota(user: owner.user, adding: Int64(bytes.count)) }
        let stored = try await sync.guarded {
            try await chunks.putChunk(user: owner.user, hash: hash, bytes: bytes, now: now())
        }
        metrics.chunkReceived(bytes: bytes.count, new: stored)
        return Response(status: .noContent)
    }

    /// `GET /v1/chunks/HASH`.
    func getChunk(_ request: Request, hash: String) async throws -> Response {
        let owner = try await sync.authenticate(request)
        try check(addresses: [hash])
        guard let bytes = try await sync.guarded({ try await chunks.chunk(user: owner.user, hash: hash) }) else {
            throw APIError.notFound("no chunk \(hash.prefix(12))… in this account")
        }
        metrics.chunkSent(bytes: bytes.count)
        return Response(
            status: .ok, headers: [.contentType: "application/octet-stream"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// `PUT /v1/files/HASH`: commits a manifest once every chunk it lists is stored.
    func putFile(_ request: Request, hash: String) async throws -> Response {
        let owner = try await sync.authenticate(request)
        try check(addresses: [hash])
        let manifest: FileManifest = try decode(
            try await sync.readBody(request), allowing: ["size", "chunks", "items"])
        try check(addresses: manifest.chunks)
        try check(claims: manifest.items ?? [])
        try refuseOversized(manifest.size)
        let missing = try await sync.guarded {
            try await chunks.commitFile(user: owner.user, hash: hash, manifest: manifest, now: now())
        }
        guard missing.isEmpty else {
            throw APIError.badRequest(
                "the manifest lists \(missing.count) chunks this account does not hold (first \(missing[0].prefix(12))…); upload them first"
            )
        }
        return Response(status: .noContent)
    }

    /// `GET /v1/files/HASH`.
    func getFile(_ request: Request, hash: String) async throws -> Response {
        let owner = try await sync.authenticate(request)
        try check(addresses: [hash])
        guard let manifest = try await sync.guarded({ try await chunks.file(user: owner.user, hash: hash) }) else {
            throw APIError.notFound("no file \(hash.prefix(12))… in this account (not uploaded yet)")
        }
        return try json(manifest)
    }

    // MARK: - Steps

    /// Decodes a `ChunkQuery` or `FileManifest`; a key openapi.yaml does not allow (`size` and
    /// `chunks`, and a commit's `items`) is refused, not skipped.
    private func decode<T: Decodable>(_ bytes: [UInt8], allowing keys: Set<String> = ["size", "chunks"]) throws -> T {
        guard !bytes.isEmpty else { throw APIError.badRequest("the body is empty; send a JSON document") }
        if let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] {
            if let stray = object.keys.sorted().first(where: { !keys.contains($0) }) {
                throw APIError.badRequest("unknown key '\(stray.prefix(60))'; see openapi.yaml for the body's shape")
            }
            // No key of these bodies may be null (openapi.yaml): an optional one is left out.
            if let null = object.keys.sorted().first(where: { object[$0] is NSNull }) {
                throw APIError.badRequest("'\(null)' is null; leave it out or give it a value")
            }
        }
        do {
            return try WireJSON.decoder().decode(T.self, from: Data(bytes))
        } catch let error as DecodingError {
            throw APIError.badRequest(error.readableMessage)
        } catch {
            throw APIError.badRequest("the body is not valid JSON")
        }
    }

    private func check(addresses: [String]) throws {
        guard addresses.count <= AttachmentProtocol.maxChunksPerFile else {
            throw APIError.tooLarge(
                "\(addresses.count) chunks; a file has at most \(AttachmentProtocol.maxChunksPerFile)")
        }
        if let bad = addresses.first(where: { !AttachmentProtocol.isAddress($0) }) {
            throw APIError.badRequest("'\(bad.prefix(80))' is not a chunk address (64 lowercase hex digits)")
        }
    }

    /// A commit's claims are item ids (UUIDs), at most `FileManifest.maxClaims` of them.
    private func check(claims: [String]) throws {
        guard claims.count <= FileManifest.maxClaims else {
            throw APIError.tooLarge(
                "\(claims.count) items claim the file; a commit names at most \(FileManifest.maxClaims)")
        }
        if let bad = claims.first(where: { !UUIDv7Generator.isValid($0) }) {
            throw APIError.badRequest("'\(bad.prefix(80))' in 'items' is not an item id (a UUID)")
        }
    }

    private func refuseOversized(_ size: Int64) throws {
        guard size >= 0 else { throw APIError.badRequest("'size' must not be negative") }
        guard size <= limits.maxAttachmentBytes else {
            throw APIError.tooLarge(
                "the file is \(ByteCount.text(size)); this server takes files up to \(ByteCount.text(limits.maxAttachmentBytes))"
            )
        }
    }

    private func refuseOverQuota(user: UserID, adding: Int64) async throws {
        guard limits.attachmentQuotaBytes > 0 else { return }
        let used = try await sync.guarded { try await chunks.attachmentBytes(user: user) }
        guard used + adding <= limits.attachmentQuotaBytes else {
            throw APIError.tooLarge(
                "this account's attachments are full (\(ByteCount.text(used)) used of \(ByteCount.text(limits.attachmentQuotaBytes))): "
                    + "detach files or ask the server's operator for a larger --attachment-quota")
        }
    }

    private func json(_ value: some Encodable) throws -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: try WireJSON.encode(value))))
    }
}
