import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import NIOFoundationEssentialsCompat
import QuireCore
import QuireCrypto
import QuireProtocol
import Testing

@testable import QuireServer

/// An encrypted account's chunks on each store: its plain copies dropped when it is encrypted,
/// then filed under keyed addresses the server cannot check, kept and served as sent, stored
/// once, and still refused to a plain account under an address its bytes do not hash to.
@Suite struct SealedChunkEndpointTests {
    let chunks = ChunkEndpointTests()

    @Test(arguments: StoreKind.available)
    func anEncryptedAccountsSealedChunksAreTakenUnderKeyedAddressesAndComeBackAsSent(_ kind: StoreKind)
        async throws
    {
        try await withHarness(kind) { server in
            let ann = try await server.addUser("ann")
            let bob = try await server.addUser("bob")
            // A file uploaded plain before the account is encrypted.
            let early = ChunkEndpointTests.chunk(9)
            #expect(try await chunks.put(server, ann, early.address, early.bytes).status == .noContent)
            let earlyFile = String(repeating: "e0", count: 32)
            let earlyManifest = FileManifest(size: 1000, chunks: [early.address])
            #expect(try await chunks.commit(server, ann, earlyFile, earlyManifest).status == .noContent)

            let keys = try EncryptionTests.Keys()
            let ring = try await EncryptionTests().putKeyRing(server, ann, keys, version: 0)
            #expect(ring.status == .ok || ring.status == .noContent, "\(ring.status)")
            // The first key ring drops the plain copy: its devices send it again sealed.
            let gone = try await server.send(.get, AttachmentProtocol.chunksPath + "/" + early.address, token: ann)
            #expect(try server.failure(gone).0 == 404)
            let noFile = try await server.send(.get, AttachmentProtocol.filesPath + "/" + earlyFile, token: ann)
            #expect(try server.failure(noFile).0 == 404)

            let plain = Data((0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 13) })
            let hash = String(repeating: "ab", count: 32)
            let key = FileCipher.newKey(forContent: hash, keys: keys.data)
            let sealed = [
                key.seal(plain.prefix(2000), index: 0, isLast: false),
                key.seal(plain.suffix(1000), index: 1, isLast: true),
            ]
            let addresses = sealed.map(key.address(ofSealed:))
            let manifest = FileManifest(size: 3000, chunks: addresses)

            // A plain account is still held to SHA-256 addresses.
            let refused = try await chunks.put(server, bob, addresses[0], Array(sealed[0]))
            #expect(try server.failure(refused).0 == 400)

            for (address, bytes) in zip(addresses, sealed) {
                #expect(try await chunks.put(server, ann, address, Array(bytes)).status == .noContent)
            }
            #expect(try await chunks.commit(server, ann, key.fileAddress, manifest).status == .noContent)
            let asked = try await chunks.missing(server, ann, size: 3000, addresses)
            #expect(
                try JSONDecoder().decode(ChunkQueryAnswer.self, from: Data(buffer: asked.body)).missing.isEmpty,
                "the same file again is stored already")
            let read = try await server.send(.get, AttachmentProtocol.filesPath + "/" + key.fileAddress, token: ann)
            #expect(try JSONDecoder().decode(FileManifest.self, from: Data(buffer: read.body)) == manifest)
            for (index, address) in addresses.enumerated() {
                let got = try await server.send(.get, AttachmentProtocol.chunksPath + "/" + address, token: ann)
                let bytes = Data(buffer: got.body)
                #expect(bytes == sealed[index])
                #expect(
                    try key.open(bytes, index: index, isLast: index == 1) == plain.dropFirst(index * 2000).prefix(2000))
            }
        }
    }
}
