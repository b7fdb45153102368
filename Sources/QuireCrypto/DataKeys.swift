import Foundation

/// One data key and the subkeys it is used through: one seals field values and wraps file
/// keys, one keys value MACs, one keys the addresses of attached files' chunks, so no key ever
/// serves two algorithms.
struct DataKey: Sendable {
    let id: UInt32
    let material: SecretBytes
    let sealing: SecretBytes
    let mac: SecretBytes
    let addresses: SecretBytes

    init(id: UInt32, material: SecretBytes) {
        self.id = id
        self.material = material
        sealing = Sodium.subkey(of: material, id: 1, context: "QuireFld")
        mac = Sodium.subkey(of: material, id: 1, context: "QuireMAC")
        addresses = Sodium.subkey(of: material, id: 1, context: "QuireAdr")
    }
}

/// The data keys a device holds once the key ring is unlocked: every key id it can open, and
/// the current one, which seals new values. This (not the passphrase, not the ring key) is what
/// a device keeps in its credentials file, so unlocking runs Argon2id once, never per item.
public struct DataKeys: Sendable {
    public let currentID: UInt32
    let byID: [UInt32: DataKey]

    init(currentID: UInt32, keys: [DataKey]) {
        precondition(keys.contains { $0.id == currentID }, "the current data key is among the keys")
        self.currentID = currentID
        byID = Dictionary(keys.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Every key id held, oldest first.
    public var ids: [UInt32] { byID.keys.sorted() }

    var current: DataKey { byID[currentID]! }

    func key(_ id: UInt32) throws(KeyRingError) -> DataKey {
        guard let key = byID[id] else { throw .unknownKeyID(id) }
        return key
    }
}

/// The credentials file's form: `{"current": 2, "keys": {"1": "<base64url>", "2": "…"}}`. The
/// file is the device's to protect (mode 0600); the text of a key is a Swift string, which
/// cannot be wiped, so encode it only to write that file.
extension DataKeys: Codable {
    private enum CodingKeys: String, CodingKey {
        case current, keys
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let current = try container.decode(UInt32.self, forKey: .current)
        let texts = try container.decode([String: String].self, forKey: .keys)
        var keys: [DataKey] = []
        for (idText, text) in texts {
            guard let id = UInt32(idText), var bytes = Sodium.bytes(base64URL: text[...]),
                bytes.count == Sodium.aeadKeyBytes
            else {
                throw DecodingError.dataCorruptedError(
                    forKey: .keys, in: container, debugDescription: "a data key is not 32 bytes of base64url")
            }
            keys.append(DataKey(id: id, material: SecretBytes(copying: bytes)))
            wipe(&bytes)
        }
        guard keys.contains(where: { $0.id == current }) else {
            throw DecodingError.dataCorruptedError(
                forKey: .current, in: container, debugDescription: "the current data key \(current) is missing")
        }
        self.init(currentID: current, keys: keys)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(currentID, forKey: .current)
        let texts = Dictionary(
            uniqueKeysWithValues: byID.values.map { key in
                var bytes = key.material.withUnsafeBytes { Array($0) }
                defer { wipe(&bytes) }
                return (String(key.id), Sodium.base64URL(bytes))
            })
        try container.encode(texts, forKey: .keys)
    }
}
