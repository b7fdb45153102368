import Foundation
import QuireCore
import QuireProtocol

/// What an attachment's chunks become on the wire, and the addresses the server knows them
/// and the file by: the seam end-to-end encryption fills.
///
/// The plaintext sealer (`PlaintextChunkSealer`) sends the bytes as they are. An encrypting one
/// seals each chunk with the file's own key (`AttachedFile.wrappedKey`, unwrapped by the
/// account's data key), binding the chunk's index and the last-chunk flag as associated data,
/// so the server can neither read, reorder nor truncate a file. Sealing must be deterministic
/// for a given file and index (a nonce derived from them, say): the address of a chunk is
/// computed before the upload and again when a resumed upload sends it.
public protocol ChunkSealer: Sendable {
    /// The bytes sent for chunk `index` of `file`.
    func seal(_ chunk: Data, index: Int, isLast: Bool, of file: AttachedFile) throws -> Data
    /// The chunk's own bytes from what the server returned; throws when they were altered.
    func open(_ sealed: Data, index: Int, isLast: Bool, of file: AttachedFile) throws -> Data
    /// The address the server files a sealed chunk under. The server checks that a chunk's
    /// bytes hash to it with SHA-256, so an encrypting sealer keeps that (the hash of the
    /// ciphertext reveals nothing of the plaintext).
    func address(ofSealed bytes: Data) -> String
    /// The address the server knows the whole file by.
    func fileAddress(of file: AttachedFile) -> String
}

/// Chunks as they are, addressed by their SHA-256; the file by its content hash.
public struct PlaintextChunkSealer: ChunkSealer {
    public init() {}

    public func seal(_ chunk: Data, index: Int, isLast: Bool, of file: AttachedFile) throws -> Data { chunk }

    public func open(_ sealed: Data, index: Int, isLast: Bool, of file: AttachedFile) throws -> Data { sealed }

    public func address(ofSealed bytes: Data) -> String { ContentHash.sha256Hex(bytes: bytes) }

    public func fileAddress(of file: AttachedFile) -> String { file.hash }
}

/// When attached files come down to this device (`download` in `[attachments]` of the config).
public enum AttachmentDownloadPolicy: String, Sendable, CaseIterable {
    /// As soon as their references arrive (the default).
    case always
    /// Only when a person opens or saves one.
    case onOpen = "on-open"
}
