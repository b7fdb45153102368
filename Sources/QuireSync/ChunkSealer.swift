import Foundation
import QuireCore
import QuireProtocol

/// What an attachment's chunks become on the wire, and the addresses the server knows them
/// and the file by.
///
/// The plaintext sealer (`PlaintextChunkSealer`) sends a plain account's bytes as they are.
/// The encrypting one (`EncryptingChunkSealer`) seals each chunk with the file's own key,
/// binding the chunk's index and the last-chunk flag, so the server can neither read, reorder
/// nor truncate a file. Sealing is deterministic for a given file and index: the address of a
/// chunk is computed before the upload and again when a resumed upload sends it.
public protocol ChunkSealer: Sendable {
    /// Whether `file` travels through this sealer: a plain account's files have no key, an
    /// encrypted account's have one. Any other waits on the device, never sent as it is.
    func carries(_ file: AttachedFile) -> Bool
    /// The key a reference this sealer does not carry should get so it can travel (one of
    /// `known`'s for the same content when there is one), nil when there is none to give.
    func key(for file: AttachedFile, known: [AttachedFile]) -> String?
    /// Whether `seal` makes other bytes than the chunk's own, worth keeping between computing
    /// the addresses and sending (`SealedCopy`); a plain chunk is read again instead.
    var sealsChunks: Bool { get }
    /// The bytes sent for chunk `index` of `file`.
    func seal(_ chunk: Data, index: Int, isLast: Bool, of file: AttachedFile) throws -> Data
    /// The chunk's own bytes from what the server returned; throws when they were altered.
    func open(_ sealed: Data, index: Int, isLast: Bool, of file: AttachedFile) throws -> Data
    /// The address the server files a sealed chunk of `file` under.
    func address(ofSealed bytes: Data, of file: AttachedFile) throws -> String
    /// The address the server knows the whole file by.
    func fileAddress(of file: AttachedFile) throws -> String
}

/// Chunks as they are, addressed by their SHA-256 (which the server checks); the file by its
/// content hash.
public struct PlaintextChunkSealer: ChunkSealer {
    public init() {}

    public func carries(_ file: AttachedFile) -> Bool { file.wrappedKey == nil }

    /// A plain account has no keys to give.
    public func key(for file: AttachedFile, known: [AttachedFile]) -> String? { nil }

    public var sealsChunks: Bool { false }

    public func seal(_ chunk: Data, index: Int, isLast: Bool, of file: AttachedFile) throws -> Data { chunk }

    public func open(_ sealed: Data, index: Int, isLast: Bool, of file: AttachedFile) throws -> Data { sealed }

    public func address(ofSealed bytes: Data, of file: AttachedFile) -> String { ContentHash.sha256Hex(bytes: bytes) }

    public func fileAddress(of file: AttachedFile) -> String { file.hash }
}

/// When attached files come down to this device (`download` in `[attachments]` of the config).
public enum AttachmentDownloadPolicy: String, Sendable, CaseIterable {
    /// As soon as their references arrive (the default).
    case always
    /// Only when a person opens or saves one.
    case onOpen = "on-open"
}
