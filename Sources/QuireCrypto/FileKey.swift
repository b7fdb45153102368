import Foundation

/// One attached file's key, unwrapped: seals and opens the file's chunks and names the
/// addresses the server files them under.
///
/// ## Why XChaCha20-Poly1305 per chunk, not secretstream
///
/// libsodium's secretstream also orders and ends a stream, but its state runs from the first
/// chunk to the last under a random header: chunk 7 cannot be sealed without sealing 0 to 6
/// first, and sealing twice gives other bytes. An upload cut short resumes by asking the server
/// which chunk addresses it lacks, so every chunk must be sealed on its own and the same way
/// every time. Each chunk is therefore sealed alone with XChaCha20-Poly1305, and what
/// secretstream's state guarded is put in the associated data: the format, the chunk's index
/// and whether it is the last. A chunk moved to another place, a file cut after any chunk, or
/// a chunk of another file (another key) fails to open.
///
/// The nonce is synthetic: keyed BLAKE2b of the associated data and the chunk's bytes under a
/// subkey of the file key (24 bytes), so sealing is deterministic (a resumed upload sends the
/// same bytes to the same address) and a nonce never repeats for different bytes under one
/// key, whatever the chunk size of the Quire that sealed it.
///
/// Sealed chunk: `nonce (24) | ciphertext | tag (16)`, 40 bytes more than the chunk.
///
/// ## Addresses
///
/// The server files chunks and the file's manifest by keyed BLAKE2b-256 (hex) under a subkey of
/// the data key that wraps the file's key: of the sealed chunk, and of the content hash with the
/// wrapped key for the file. The server learns sizes, not contents, and not whether another
/// account holds the same file; a file attached twice with the same key (a device reuses the key
/// of content it already holds) has the same addresses, so it is stored once.
public struct FileKey: Sendable {
    /// The text the file's reference carries.
    public let wrapped: String
    let contentHash: String
    private let sealing: SecretBytes
    private let nonces: SecretBytes
    private let addresses: SecretBytes

    init(wrapped: String, contentHash: String, material: SecretBytes, dataKey: DataKey) {
        self.wrapped = wrapped
        self.contentHash = contentHash
        sealing = Sodium.subkey(of: material, id: 1, context: "QuireChk")
        nonces = Sodium.subkey(of: material, id: 1, context: "QuireNon")
        addresses = dataKey.addresses
    }

    /// Chunk `index` of the file sealed; `isLast` for the file's last chunk.
    public func seal(_ chunk: Data, index: Int, isLast: Bool) -> Data {
        let associatedData = AssociatedData.chunk(index: UInt64(index), isLast: isLast)
        let box = chunk.withUnsafeBytes { bytes in
            let nonce = Sodium.keyedHash(associatedData, then: bytes, key: nonces, count: Sodium.aeadNonceBytes)
            return Sodium.seal(
                bytes.bindMemory(to: UInt8.self), associatedData: associatedData, key: sealing, nonce: nonce)
        }
        return Data(box)
    }

    /// The chunk `sealed` holds, if it was sealed as chunk `index` of this file (and as its last
    /// when `isLast`).
    public func open(_ sealed: Data, index: Int, isLast: Bool) throws(FileCipherError) -> Data {
        guard sealed.count >= Sodium.aeadOverhead else { throw .chunkFailedToOpen(index: index) }
        let associatedData = AssociatedData.chunk(index: UInt64(index), isLast: isLast)
        var chunk = Data(count: sealed.count - Sodium.aeadOverhead)
        let opened = sealed.withUnsafeBytes { box in
            chunk.withUnsafeMutableBytes { output in
                Sodium.open(
                    box.bindMemory(to: UInt8.self), associatedData: associatedData, key: sealing,
                    into: output.bindMemory(to: UInt8.self))
            }
        }
        guard opened else { throw .chunkFailedToOpen(index: index) }
        return chunk
    }

    /// The address of a sealed chunk of this file.
    public func address(ofSealed sealed: Data) -> String {
        let digest = sealed.withUnsafeBytes {
            Sodium.keyedHash(AssociatedData.chunkAddress, then: $0, key: addresses, count: 32)
        }
        return Sodium.hex(digest)
    }

    /// The address of the file's manifest.
    public var fileAddress: String {
        let message = AssociatedData.fileAddress(contentHash: contentHash, wrappedKey: wrapped)
        return Sodium.hex(Sodium.keyedHash(message, key: addresses, count: 32))
    }
}
