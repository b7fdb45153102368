import Foundation
import QuireCore
import QuireCrypto

/// An encrypted account's chunks: sealed with each file's own key (`FileKey`), which its
/// reference carries wrapped under a data key, and filed on the server under keyed hashes. The
/// server cannot check such an address (it has no key); the device checks every chunk as it
/// opens it, and the whole file against its content hash before it joins the store.
public struct EncryptingChunkSealer: ChunkSealer {
    public let keys: DataKeys

    public init(keys: DataKeys) {
        self.keys = keys
    }

    public func carries(_ file: AttachedFile) -> Bool { file.wrappedKey != nil }

    public func key(for file: AttachedFile, known: [AttachedFile]) -> String? {
        guard file.wrappedKey == nil else { return nil }
        return AttachmentKeys.keyed([file], keys: keys, known: known).first?.wrappedKey
    }

    public var sealsChunks: Bool { true }

    public func seal(_ chunk: Data, index: Int, isLast: Bool, of file: AttachedFile) throws -> Data {
        try key(of: file).seal(chunk, index: index, isLast: isLast)
    }

    public func open(_ sealed: Data, index: Int, isLast: Bool, of file: AttachedFile) throws -> Data {
        try key(of: file).open(sealed, index: index, isLast: isLast)
    }

    public func address(ofSealed bytes: Data, of file: AttachedFile) throws -> String {
        try key(of: file).address(ofSealed: bytes)
    }

    public func fileAddress(of file: AttachedFile) throws -> String {
        try key(of: file).fileAddress
    }

    /// Unwrapped at each use: one small AEAD open, next to a chunk's 1 MiB.
    private func key(of file: AttachedFile) throws(FileCipherError) -> FileKey {
        guard let wrapped = file.wrappedKey else { throw .malformedKey }
        return try FileCipher.key(wrapped: wrapped, forContent: file.hash, keys: keys)
    }
}

/// The keys newly attached files get in an encrypted account.
public enum AttachmentKeys {
    /// `files` with their keys wrapped under `keys` (as they are when `keys` is nil: a plain
    /// account). A file whose content one of `known` already holds under a key that opens takes
    /// that key, so its chunks have the same addresses and the server stores them once; any
    /// other gets a new random key.
    public static func keyed(_ files: [AttachedFile], keys: DataKeys?, known: [AttachedFile]) -> [AttachedFile] {
        guard let keys else { return files }
        return files.map { file in
            var keyed = file
            let reused = known.lazy.filter { $0.hash == file.hash }.compactMap(\.wrappedKey).first {
                (try? FileCipher.key(wrapped: $0, forContent: file.hash, keys: keys)) != nil
            }
            keyed.wrappedKey = reused ?? FileCipher.newKey(forContent: file.hash, keys: keys).wrapped
            return keyed
        }
    }
}
