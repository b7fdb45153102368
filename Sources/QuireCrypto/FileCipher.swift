import Foundation

/// The keys of attached files: each file gets its own random key, wrapped under the account's
/// current data key and carried in the file's reference (`AttachedFile.wrappedKey`), which is
/// an item field and so sealed with the item.
///
/// Wrapped form: `f1.<key id>.<base64url(24-byte nonce + 32-byte key + 16-byte tag)>`,
/// XChaCha20-Poly1305 under the data key's sealing subkey, bound to the key id and the file's
/// content hash: a wrapped key copied into a reference to other content does not open, so one
/// file key never seals two different files.
public enum FileCipher {
    /// A new random key for the file whose content hash is `contentHash`, wrapped under the
    /// current data key.
    public static func newKey(
        forContent contentHash: String, keys: DataKeys, random: some RandomSource = SystemRandom()
    ) -> FileKey {
        let dataKey = keys.current
        var material = [UInt8](repeating: 0, count: Sodium.aeadKeyBytes)
        defer { wipe(&material) }
        material.withUnsafeMutableBufferPointer { random.fill($0) }
        let box = material.withUnsafeBufferPointer {
            Sodium.seal(
                $0, associatedData: AssociatedData.fileKey(keyID: dataKey.id, contentHash: contentHash),
                key: dataKey.sealing, random: random)
        }
        let wrapped = "f\(QuireCrypto.formatVersion).\(dataKey.id).\(Sodium.base64URL(box))"
        return FileKey(
            wrapped: wrapped, contentHash: contentHash, material: SecretBytes(copying: material), dataKey: dataKey)
    }

    /// The key `wrapped` holds for the file whose content hash is `contentHash`; otherwise the
    /// reason it does not open, to show on the attachment.
    public static func key(wrapped: String, forContent contentHash: String, keys: DataKeys)
        throws(FileCipherError) -> FileKey
    {
        let parts = wrapped.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].first == "f", let version = UInt8(parts[0].dropFirst()) else {
            throw .malformedKey
        }
        guard version == QuireCrypto.formatVersion else { throw .unsupportedFormatVersion(Int(version)) }
        guard let keyID = UInt32(parts[1]), let box = Sodium.bytes(base64URL: parts[2]) else { throw .malformedKey }
        let dataKey: DataKey
        do {
            dataKey = try keys.key(keyID)
        } catch {
            throw .unknownKeyID(keyID)
        }
        guard
            let material = Sodium.openKey(
                box, associatedData: AssociatedData.fileKey(keyID: keyID, contentHash: contentHash),
                key: dataKey.sealing)
        else { throw .keyFailedToOpen(keyID: keyID) }
        return FileKey(wrapped: wrapped, contentHash: contentHash, material: material, dataKey: dataKey)
    }
}

/// Why an attached file's key or one of its chunks does not open, told apart so the device can
/// say which on the attachment (never an opaque error).
public enum FileCipherError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The reference's key is not a wrapped file key at all.
    case malformedKey
    /// Wrapped by a later version of Quire.
    case unsupportedFormatVersion(Int)
    /// Wrapped under a data key this device does not hold.
    case unknownKeyID(UInt32)
    /// The wrapped key's tag does not verify: altered, or copied from another file's reference.
    case keyFailedToOpen(keyID: UInt32)
    /// A chunk's tag does not verify at its place in the file.
    case chunkFailedToOpen(index: Int)
    /// The server's list of the file's chunks is not as long as the file.
    case wrongChunkCount(listed: Int, expected: Int)

    public var description: String {
        switch self {
        case .malformedKey: "the file's key in its reference is not a wrapped key"
        case .unsupportedFormatVersion(let version):
            "the file's key is in format \(version), which this version of Quire does not read; update Quire"
        case .unknownKeyID(let id): "the file's key is wrapped under key id \(id), which this device does not have"
        case .keyFailedToOpen(let id):
            "the file's key does not open under key id \(id): it was altered or belongs to another file"
        case .chunkFailedToOpen(let index):
            "the server's copy does not open: chunk \(index + 1) was altered, reordered, swapped with "
                + "another file's or cut short; nothing was saved"
        case .wrongChunkCount(let listed, let expected):
            "the server's copy lists \(listed) chunks where the file has \(expected): it was cut short "
                + "or added to; nothing was saved"
        }
    }
}
