import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import NIOFoundationEssentialsCompat
import QuireCore
import QuireProtocol
import Testing

@testable import QuireServer

/// The attachment endpoints behind the real router, on each store: chunks checked against
/// their address, per account, refused up front when too large, purged when nothing lists
/// them (issue 32).
@Suite struct ChunkEndpointTests {
    static func chunk(_ seed: UInt8, count: Int = 1000) -> (address: String, bytes: [UInt8]) {
        let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) }
        return (SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined(), bytes)
    }

    func missing(_ server: Harness, _ token: String, size: Int64, _ chunks: [String]) async throws -> TestResponse {
        try await server.send(
            .post, AttachmentProtocol.chunksMissingPath, token: token,
            body: Array(try JSONEncoder().encode(ChunkQuery(size: size, chunks: chunks))))
    }

    func put(_ server: Harness, _ token: String, _ address: String, _ bytes: [UInt8]) async throws -> TestResponse {
        try await server.send(
            .put, AttachmentProtocol.chunksPath + "/" + address, token: token, body: bytes,
            headers: [.contentType: "application/octet-stream"])
    }

    func commit(_ server: Harness, _ token: String, _ file: String, _ manifest: FileManifest) async throws
        -> TestResponse
    {
        try await server.send(
            .put, AttachmentProtocol.filesPath + "/" + file, token: token,
            body: Array(try JSONEncoder().encode(manifest)))
    }

    @Test(arguments: StoreKind.available)
    func anUploadSendsOnlyWhatIsMissingAndAnotherAccountSeesNothing(_ kind: StoreKind) async throws {
        try await withHarness(kind) { server in
            let ann = try await server.addUser("ann")
            let bob = try await server.addUser("bob")
            let parts = [Self.chunk(1), Self.chunk(2), Self.chunk(3, count: 10)]
            let file = String(repeating: "f0", count: 32)
            let manifest = FileManifest(size: 2010, chunks: parts.map(\.address))

            let asked = try await missing(server, ann, size: 2010, manifest.chunks)
            #expect(asked.status == .ok)
            #expect(
                try JSONDecoder().decode(ChunkQueryAnswer.self, from: Data(buffer: asked.body)).missing
                    == manifest.chunks)
            let early = try await commit(server, ann, file, manifest)
            #expect(try server.failure(early).0 == 400, "no manifest before its chunks")

            let wrong = try await put(server, ann, parts[0].address, parts[1].bytes)
            #expect(try server.failure(wrong).0 == 400, "bytes that do not hash to the address are refused")
            for part in parts + [parts[0]] {
                #expect(try await put(server, ann, part.address, part.bytes).status == .noContent, "idempotent")
            }
            let after = try await missing(server, ann, size: 2010, manifest.chunks)
            #expect(try JSONDecoder().decode(ChunkQueryAnswer.self, from: Data(buffer: after.body)).missing.isEmpty)
            #expect(try await commit(server, ann, file, manifest).status == .noContent)
            let read = try await server.send(.get, AttachmentProtocol.filesPath + "/" + file, token: ann)
            #expect(try JSONDecoder().decode(FileManifest.self, from: Data(buffer: read.body)) == manifest)
            let got = try await server.send(.get, AttachmentProtocol.chunksPath + "/" + parts[2].address, token: ann)
            #expect(Array(buffer: got.body) == parts[2].bytes)

            // Bob's account holds none of it, and learns nothing from asking.
            let bobs = try await missing(server, bob, size: 2010, manifest.chunks)
            #expect(
                try JSONDecoder().decode(ChunkQueryAnswer.self, from: Data(buffer: bobs.body)).missing
                    == manifest.chunks)
            let stolen = try await server.send(.get, AttachmentProtocol.chunksPath + "/" + parts[0].address, token: bob)
            #expect(try server.failure(stolen).0 == 404)
            let noFile = try await server.send(.get, AttachmentProtocol.filesPath + "/" + file, token: bob)
            #expect(try server.failure(noFile).0 == 404)
            let anonymous = try await server.send(
                .get, AttachmentProtocol.chunksPath + "/" + parts[0].address, token: nil)
            #expect(try server.failure(anonymous).0 == 401)
            let malformed = try await server.send(.get, AttachmentProtocol.chunksPath + "/XYZ", token: ann)
            #expect(try server.failure(malformed).0 == 400)
            let stray = try await server.send(
                .post, AttachmentProtocol.chunksMissingPath, token: ann,
                body: Array(#"{"size": 0, "chunks": [], "extra": 1}"#.utf8))
            #expect(try server.failure(stray).0 == 400, "a key openapi.yaml does not allow is refused")

            // An abandoned upload's chunk goes after the retention; a committed file's stay.
            let orphan = Self.chunk(9)
            #expect(try await put(server, ann, orphan.address, orphan.bytes).status == .noContent)
            let chunks = try #require(server.store as? any ChunkStore)
            #expect(try await chunks.purgeChunks(before: server.clock.now().addingTimeInterval(60)) == 1)
            let left = try await missing(server, ann, size: 3010, manifest.chunks + [orphan.address])
            #expect(
                try JSONDecoder().decode(ChunkQueryAnswer.self, from: Data(buffer: left.body)).missing == [
                    orphan.address
                ])

            let metrics = String(buffer: try await server.send(.get, "/metrics", token: nil).body)
            #expect(metrics.contains("quire_chunks_received_total 5"), "\(metrics.prefix(400))")
        }
    }

    @Test(arguments: StoreKind.available)
    func aFileTooLargeOrPastTheQuotaIsRefusedUpFront(_ kind: StoreKind) async throws {
        try await withHarness(
            kind,
            configure: {
                $0.limits.maxAttachmentBytes = 4096
                $0.limits.attachmentQuotaBytes = 3000
            }
        ) { server in
            let ann = try await server.addUser("ann")
            let large = try await missing(server, ann, size: 5000, [Self.chunk(1).address])
            let (status, body) = try server.failure(large)
            #expect(status == 413 && body.error == .tooLarge)
            #expect(body.message.contains("4.0 KB"), "names the limit: \(body.message)")

            let first = Self.chunk(1, count: 2000)
            #expect(try await missing(server, ann, size: 2000, [first.address]).status == .ok)
            #expect(try await put(server, ann, first.address, first.bytes).status == .noContent)
            let second = Self.chunk(2, count: 2000)
            let full = try await missing(server, ann, size: 2000, [second.address])
            let (fullStatus, fullBody) = try server.failure(full)
            #expect(fullStatus == 413 && fullBody.message.contains("full"), "\(fullBody.message)")
            let sneaked = try await put(server, ann, second.address, second.bytes)
            #expect(try server.failure(sneaked).0 == 413, "the quota holds for a chunk sent without asking")
        }
    }
}
