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

    /// The id of the data key `sealed` names, nil when it is not in the sealed form: what tells
    /// a value sealed before a rotation from one sealed after, without opening it.
    public static func keyID(of sealed: String) -> UInt32? {
        var text = sealed
        return text.withUTF8 { utf8 in DottedForm(utf8).flatMap { DottedForm.number($0.keyID) } }
    }

    /// The value `sealed` holds, if it was sealed for `field` of `item` under a key in `keys`;
    /// otherwise the reason it is not readable, for the device to show beside the item.
    public static func open(_ sealed: String, item: String, field: String, keys: DataKeys)
        throws(FieldCipherError) -> Data
    {
        Data(try openBytes(sealed, item: item, field: field, keys: keys))
    }

    /// `open`'s value as bytes.
    public static func openBytes(_ sealed: String, item: String, field: String, keys: DataKeys)
        throws(FieldCipherError) -> [UInt8]
    {
        var bytes: [UInt8] = []
        try withOpened(sealed, item: item, field: field, keys: keys) { bytes = Array($0) }
        return bytes
    }

    /// Hands `read` the value `sealed` holds, as `open` finds it, in memory that lives only for
    /// the call: a first pull opens every field of every item, and reads each value once, so
    /// the sealed box, its associated data and the opened bytes get no arrays of their own.
    /// Not generic, so that callers in other modules do not look up generic metadata per value.
    public static func withOpened(
        _ sealed: String, item: String, field: String, keys: DataKeys, _ read: (UnsafeBufferPointer<UInt8>) -> Void
    ) throws(FieldCipherError) {
        var text = sealed
        if let failure = text.withUTF8({ open($0, item: item, field: field, keys: keys, read) }) { throw failure }
    }

    /// Why `sealed` does not open, or nil once `read` has had its value.
    private static func open(
        _ sealed: UnsafeBufferPointer<UInt8>, item: String, field: String, keys: DataKeys,
        _ read: (UnsafeBufferPointer<UInt8>) -> Void
    ) -> FieldCipherError? {
        guard let form = DottedForm(sealed) else { return .malformed("it is not three parts separated by dots") }
        guard let version = form.format(letter: UInt8(ascii: "v")) else {
            return .malformed("it does not start with a format version")
        }
        guard version == QuireCrypto.formatVersion else { return .unsupportedFormatVersion(Int(version)) }
        guard let keyID = DottedForm.number(form.keyID) else { return .malformed("its key id is not a number") }
        guard let key = try? keys.key(keyID) else { return .unknownKeyID(keyID) }
        guard let boxCount = PublicBase64URL.decodedCount(form.rest.count) else {
            return .malformed("its ciphertext is not base64url")
        }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: boxCount) { box -> FieldCipherError? in
            guard PublicBase64URL.decode(form.rest, into: box) else {
                return .malformed("its ciphertext is not base64url")
            }
            guard boxCount >= Sodium.aeadOverhead else {
                return .malformed("it is truncated: \(boxCount) bytes, fewer than a nonce and a tag")
            }
            let placeCount = AssociatedData.placeCount(label: AssociatedData.fieldLabel, item: item, field: field)
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: placeCount) { place -> FieldCipherError? in
                let written = AssociatedData.writePlace(
                    label: AssociatedData.fieldLabel, keyID: keyID, item: item, field: field, into: place)
                let length = boxCount - Sodium.aeadOverhead
                return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length) { output -> FieldCipherError? in
                    guard
                        Sodium.open(
                            UnsafeBufferPointer(box), associatedData: UnsafeBufferPointer(rebasing: place[..<written]),
                            key: key.sealing, into: output)
                    else { return .failedToOpen(keyID: keyID) }
                    read(UnsafeBufferPointer(output))
                    return nil
                }
            }
        }
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
