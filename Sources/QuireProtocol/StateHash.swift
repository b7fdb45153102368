import Crypto
import QuireCore

/// A fingerprint of a user's live items and their revisions, equal on client and server when
/// both hold the same versions.
///
/// Definition (both sides compute exactly this):
/// 1. For every item that is not deleted and has `rev >= 1`, take the SHA-256 digest of the
///    UTF-8 text `"<id>:<rev>"` (`id` exactly as the item's id string, `rev` in decimal).
/// 2. XOR all these 32-byte digests together; no items gives 32 zero bytes.
/// 3. Write the result as 64 lowercase hex digits.
///
/// XOR makes the hash independent of order and lets the server keep it up to date with two
/// digests per write (`toggle` out the old version, `toggle` in the new one) instead of reading
/// every item. A client computes it over the versions it last received from the server (its
/// base versions: the server's `rev` and `deleted`, not its own pending edits) after a pull
/// answered `more: false`, and compares with the answer's `stateHash`.
public struct StateHash: Hashable, Sendable, CustomStringConvertible {
    /// The 32 bytes of the running XOR.
    public private(set) var bytes: [UInt8]

    /// The hash of no items.
    public init() {
        bytes = [UInt8](repeating: 0, count: 32)
    }

    /// Reads the 64-hex-digit form; nil for anything else.
    public init?(hex: String) {
        let utf8 = Array(hex.utf8)
        guard utf8.count == 64 else { return nil }
        var result = [UInt8]()
        result.reserveCapacity(32)
        var index = 0
        while index < 64 {
            guard let high = StateHash.nibble(utf8[index]), let low = StateHash.nibble(utf8[index + 1]) else {
                return nil
            }
            result.append(high << 4 | low)
            index += 2
        }
        bytes = result
    }

    /// The hash of a set of live item versions.
    public init<S: Sequence>(versions: S) where S.Element == (id: String, rev: Int) {
        self.init()
        for version in versions { toggle(id: version.id, rev: version.rev) }
    }

    /// The hash of the live items among `items` (tombstones and never-synced items left out).
    public init<S: Sequence>(items: S) where S.Element == ChangeItem {
        self.init()
        for item in items where !item.deleted { toggle(id: item.id, rev: item.rev) }
    }

    /// Adds a live version to the set, or removes it when it is already in (XOR is its own
    /// inverse). Revisions below 1 are never on the server and change nothing.
    public mutating func toggle(id: String, rev: Int) {
        guard rev >= 1 else { return }
        let digest = SHA256.hash(data: Array("\(id):\(rev)".utf8))
        var index = 0
        for byte in digest {
            bytes[index] ^= byte
            index += 1
        }
    }

    /// 64 lowercase hex digits.
    public var hex: String { ContentHash.hex(bytes) }

    public var description: String { hex }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
