import Foundation

/// The account's keys as the server stores them: wrapped, so the server (or anyone holding a
/// backup of it) learns nothing from them without the passphrase or the recovery key. The JSON
/// shape and the reasons for it are in QuireCrypto's documentation; operations are in
/// `KeyRing+Operations.swift`.
public struct KeyRing: Codable, Hashable, Sendable {
    /// The ring key wrapped under the passphrase's Argon2id key, with what derives that key.
    public struct PassphraseSlot: Codable, Hashable, Sendable {
        public var kdf: KDFParameters
        public var salt: String
        public var check: String
        public var wrappedKey: String
    }

    /// The ring key wrapped under the recovery key (random, so no derivation is needed).
    public struct RecoverySlot: Codable, Hashable, Sendable {
        public var check: String
        public var wrappedKey: String
    }

    /// One data key, wrapped under the ring key; its id is in the sealed values it opens.
    public struct WrappedDataKey: Codable, Hashable, Sendable {
        public var id: UInt32
        public var wrappedKey: String
        /// A key added by a rotation (format 2) is also wrapped under the key that was current
        /// before it, so a device that holds only data keys learns it without a secret.
        public var chain: ChainedKey?
    }

    /// A data key wrapped under a subkey of an earlier data key (`from`), bound to both ids.
    public struct ChainedKey: Codable, Hashable, Sendable {
        public var from: UInt32
        public var wrappedKey: String
    }

    /// The newest format: 2 adds chained keys. A ring is written in format 1 until its first
    /// rotation, so devices of a version that reads only format 1 go on unlocking it; from then
    /// on they say "update Quire" instead of rewriting the ring without its chains.
    public static let newestFormat = 2
    static let readableFormats = 1...newestFormat

    public internal(set) var format: Int
    public internal(set) var passphrase: PassphraseSlot
    public internal(set) var recovery: RecoverySlot
    /// The data key new values are sealed under.
    public internal(set) var currentKey: UInt32
    /// Every data key, oldest first: rotation adds one and never drops one, so every value
    /// sealed before stays readable.
    public internal(set) var keys: [WrappedDataKey]

    /// The key ring in `data`, its format checked before its shape, so a later format reads as
    /// "unsupported" rather than as damage.
    public static func decode(_ data: Data) throws(KeyRingError) -> KeyRing {
        struct Format: Decodable { let format: Int }
        let format: Format
        do {
            format = try JSONDecoder().decode(Format.self, from: data)
        } catch {
            throw .damaged("it is not JSON with a format number")
        }
        guard readableFormats.contains(format.format) else {
            throw .unsupportedFormatVersion(format.format)
        }
        do {
            return try JSONDecoder().decode(KeyRing.self, from: data)
        } catch {
            throw .damaged("its JSON does not have the fields of format \(format.format)")
        }
    }

    /// Why this ring could not be used (a length, a range, a missing current key), or nil when
    /// every part has its format's shape. What a server can check of a ring it cannot open.
    public var problem: String? {
        do {
            _ = try CheckedKeyRing(self)
            return nil
        } catch {
            return error.description
        }
    }

    /// The JSON to store, keys sorted so the same ring always gives the same bytes.
    public func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // A struct of strings and numbers always encodes.
        return try! encoder.encode(self)
    }
}

/// A key ring with its binary values decoded and every length and range checked: what the
/// operations work on, so none of them meets a half-valid ring.
struct CheckedKeyRing {
    static let checkBytes = 16
    static let wrappedKeyBytes = Sodium.aeadOverhead + Sodium.aeadKeyBytes

    let salt: [UInt8]
    let passphraseCheck: [UInt8]
    let passphraseWrapped: [UInt8]
    let recoveryCheck: [UInt8]
    let recoveryWrapped: [UInt8]
    let keys: [(id: UInt32, wrapped: [UInt8], chain: (from: UInt32, wrapped: [UInt8])?)]
    let currentKey: UInt32

    init(_ ring: KeyRing) throws(KeyRingError) {
        guard KeyRing.readableFormats.contains(ring.format) else { throw .unsupportedFormatVersion(ring.format) }
        if let problem = ring.passphrase.kdf.problem { throw .damaged(problem) }
        salt = try Self.bytes(ring.passphrase.salt, count: KeyDerivation.saltBytes, what: "the salt")
        passphraseCheck = try Self.bytes(ring.passphrase.check, count: Self.checkBytes, what: "the passphrase check")
        passphraseWrapped = try Self.bytes(
            ring.passphrase.wrappedKey, count: Self.wrappedKeyBytes, what: "the key wrapped under the passphrase")
        recoveryCheck = try Self.bytes(ring.recovery.check, count: Self.checkBytes, what: "the recovery key check")
        recoveryWrapped = try Self.bytes(
            ring.recovery.wrappedKey, count: Self.wrappedKeyBytes, what: "the key wrapped under the recovery key")
        var keys: [(id: UInt32, wrapped: [UInt8], chain: (from: UInt32, wrapped: [UInt8])?)] = []
        for key in ring.keys {
            guard !keys.contains(where: { $0.id == key.id }) else {
                throw .damaged("data key \(key.id) is there twice")
            }
            let wrapped = try Self.bytes(key.wrappedKey, count: Self.wrappedKeyBytes, what: "data key \(key.id)")
            keys.append((key.id, wrapped, try Self.chain(of: key, in: ring)))
        }
        guard keys.contains(where: { $0.id == ring.currentKey }) else {
            throw .damaged("its current data key \(ring.currentKey) is not among its keys")
        }
        self.keys = keys
        currentKey = ring.currentKey
    }

    /// The chained copy of `key`: only in format 2, from another key of the same ring.
    private static func chain(of key: KeyRing.WrappedDataKey, in ring: KeyRing) throws(KeyRingError)
        -> (from: UInt32, wrapped: [UInt8])?
    {
        guard let chain = key.chain else { return nil }
        guard ring.format >= 2 else { throw .damaged("data key \(key.id) is chained, which format 1 has no place for") }
        guard chain.from != key.id, ring.keys.contains(where: { $0.id == chain.from }) else {
            throw .damaged("data key \(key.id) is chained from \(chain.from), which is not another of its keys")
        }
        return (
            chain.from,
            try bytes(chain.wrappedKey, count: wrappedKeyBytes, what: "data key \(key.id) chained from \(chain.from)")
        )
    }

    private static func bytes(_ text: String, count: Int, what: String) throws(KeyRingError) -> [UInt8] {
        guard let bytes = Sodium.bytes(base64URL: text[...]) else { throw .damaged("\(what) is not base64url") }
        guard bytes.count == count else { throw .damaged("\(what) is \(bytes.count) bytes, not \(count)") }
        return bytes
    }
}
