import Foundation

/// Seals and opens one field value (the bytes of its JSON) with XChaCha20-Poly1305 under the
/// sealing subkey of a data key, bound to its item, field and key id.
///
/// Sealed form: `v1.<key id>.<base64url(nonce + ciphertext + tag)>`, ASCII with no character
/// JSON escapes. The nonce is random (24 bytes: no counter to keep across devices).
public enum FieldCipher {
    /// `value` sealed under the current data key for `field` of `item`.
    public static func seal(
        _ value: Data, item: String, field: String, keys: DataKeys, random: some RandomSource = SystemRandom()
    ) -> String {
        let key = keys.current
        let associatedData = AssociatedData.field(keyID: key.id, item: item, field: field)
        let box = value.withUnsafeBytes {
            Sodium.seal($0.bindMemory(to: UInt8.self), associatedData: associatedData, key: key.sealing, random: random)
        }
        return "v\(QuireCrypto.formatVersion).\(key.id).\(Sodium.base64URL(box))"
    }

    /// The value `sealed` holds, if it was sealed for `field` of `item` under a key in `keys`;
    /// otherwise the reason it is not readable, for the device to show beside the item.
    public static func open(_ sealed: String, item: String, field: String, keys: DataKeys)
        throws(FieldCipherError) -> Data
    {
        let parts = sealed.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .malformed("it is not three parts separated by dots") }
        guard parts[0].first == "v", let version = number(parts[0].dropFirst()) else {
            throw .malformed("it does not start with a format version")
        }
        guard version == QuireCrypto.formatVersion else { throw .unsupportedFormatVersion(Int(version)) }
        guard let keyID = number(parts[1]) else { throw .malformed("its key id is not a number") }
        let key: DataKey
        do {
            key = try keys.key(keyID)
        } catch {
            throw .unknownKeyID(keyID)
        }
        guard let box = Sodium.bytes(base64URL: parts[2]) else { throw .malformed("its ciphertext is not base64url") }
        guard box.count >= Sodium.aeadOverhead else {
            throw .malformed("it is truncated: \(box.count) bytes, fewer than a nonce and a tag")
        }
        let associatedData = AssociatedData.field(keyID: keyID, item: item, field: field)
        var value = Data(count: box.count - Sodium.aeadOverhead)
        let opened = box.withUnsafeBufferPointer { box in
            value.withUnsafeMutableBytes { output in
                Sodium.open(
                    box, associatedData: associatedData, key: key.sealing, into: output.bindMemory(to: UInt8.self))
            }
        }
        guard opened else { throw .failedToOpen(keyID: keyID) }
        return value
    }

    /// A number as the sealed form writes it: decimal digits, no sign, no leading zero (so one
    /// number has one spelling).
    private static func number(_ text: Substring) -> UInt32? {
        guard let first = text.first, first != "0" || text.count == 1, first != "+" else { return nil }
        return UInt32(text)
    }
}

/// Why a sealed value does not open, told apart so a device can say which (SPEC: failure is
/// visible and local, never an opaque error).
public enum FieldCipherError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Not a sealed value at all: wrong shape, not base64url, too short to hold a nonce and tag.
    case malformed(String)
    /// Sealed by a later version of Quire.
    case unsupportedFormatVersion(Int)
    /// Sealed under a data key this device does not hold (a rotation it has not learned of).
    case unknownKeyID(UInt32)
    /// The tag does not verify: the bytes were altered, or the value was moved from another
    /// item or field, or relabelled with another key id.
    case failedToOpen(keyID: UInt32)

    public var description: String {
        switch self {
        case .malformed(let reason): "not a sealed value: \(reason)"
        case .unsupportedFormatVersion(let version):
            "sealed in format \(version), which this version of Quire does not read; update Quire"
        case .unknownKeyID(let id): "sealed under key id \(id), which this device does not have; unlock again"
        case .failedToOpen(let id):
            "does not open under key id \(id): it was altered, or moved here from another item or field"
        }
    }
}
