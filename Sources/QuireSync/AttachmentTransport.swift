import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import QuireProtocol

/// The gateway to the server's attachment endpoints (`AttachmentProtocol`): chunks and file
/// manifests. Failures are `SyncTransportError`s, read as sync reads them (413 is a refusal the
/// device records on the file and does not retry).
public protocol AttachmentTransport: Sendable {
    /// Those of the file's chunks the server lacks; 413 when it will not take the file.
    func missingChunks(_ query: ChunkQuery) async throws(SyncTransportError) -> [String]
    /// Sends one chunk (idempotent).
    func putChunk(_ address: String, bytes: Data) async throws(SyncTransportError)
    /// Reads one chunk.
    func chunk(_ address: String) async throws(SyncTransportError) -> Data
    /// Commits a file once its chunks are there.
    func commitFile(_ address: String, manifest: FileManifest) async throws(SyncTransportError)
    /// A committed file's manifest; 404 when the file is not on the server (yet).
    func file(_ address: String) async throws(SyncTransportError) -> FileManifest
}

extension HTTPSyncTransport: AttachmentTransport {
    public func missingChunks(_ query: ChunkQuery) async throws(SyncTransportError) -> [String] {
        let body = try encode(query)
        let answer = try await send(.POST, AttachmentProtocol.chunksMissingPath, body: body, type: "application/json")
        do {
            return try JSONDecoder().decode(ChunkQueryAnswer.self, from: answer).missing
        } catch {
            throw .invalidAnswer(String(describing: error))
        }
    }

    public func putChunk(_ address: String, bytes: Data) async throws(SyncTransportError) {
        _ = try await send(
            .PUT, AttachmentProtocol.chunksPath + "/" + address, body: bytes, type: "application/octet-stream")
    }

    public func chunk(_ address: String) async throws(SyncTransportError) -> Data {
        try await send(.GET, AttachmentProtocol.chunksPath + "/" + address, body: nil, type: nil)
    }

    public func commitFile(_ address: String, manifest: FileManifest) async throws(SyncTransportError) {
        _ = try await send(
            .PUT, AttachmentProtocol.filesPath + "/" + address, body: try encode(manifest), type: "application/json")
    }

    public func file(_ address: String) async throws(SyncTransportError) -> FileManifest {
        let answer = try await send(.GET, AttachmentProtocol.filesPath + "/" + address, body: nil, type: nil)
        do {
            return try JSONDecoder().decode(FileManifest.self, from: answer)
        } catch {
            throw .invalidAnswer(String(describing: error))
        }
    }

    private func encode(_ value: some Encodable) throws(SyncTransportError) -> Data {
        do { return try JSONEncoder().encode(value) } catch { throw .invalidAnswer(String(describing: error)) }
    }

    /// One request; the answer's bytes for a 2xx status, else the failure as sync reads it.
    private func send(_ method: HTTPMethod, _ path: String, body: Data?, type: String?) async throws(SyncTransportError)
        -> Data
    {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = method
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        if let body {
            request.headers.add(name: "Content-Type", value: type ?? "application/octet-stream")
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let response: HTTPClientResponse
        let answer: ByteBuffer
        do {
            response = try await Self.client.execute(request, timeout: .milliseconds(Int64(timeout * 1000)))
            answer = try await response.body.collect(upTo: AttachmentProtocol.maxChunkBytes + (64 << 10))
        } catch {
            throw .unreachable(Self.describe(error))
        }
        let bytes = Data(answer.readableBytesView)
        guard (200..<300).contains(response.status.code) else {
            throw .status(
                Int(response.status.code), error: try? JSONDecoder().decode(ErrorBody.self, from: bytes),
                retryAfter: RetryAfter.seconds(from: response.headers.first(name: "Retry-After"), now: now()))
        }
        return bytes
    }
}
