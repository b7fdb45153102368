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

    /// `open`'s value as bytes, read from the sealed text's UTF-8 in place and opened straight
    /// into the array returned: a first pull opens every field of every item.
    public static func openBytes(_ sealed: String, item: String, field: String, keys: DataKeys)
        throws(FieldCipherError) -> [UInt8]
    {
        var text = sealed
        return try text.withUTF8 { open($0, item: item, field: field, keys: keys) }.get()
    }

    private static func open(_ sealed: UnsafeBufferPointer<UInt8>, item: String, field: String, keys: DataKeys)
        -> Result<[UInt8], FieldCipherError>
    {
        guard let form = DottedForm(sealed) else {
            return .failure(.malformed("it is not three parts separated by dots"))
        }
        guard let version = form.format(letter: UInt8(ascii: "v")) else {
            return .failure(.malformed("it does not start with a format version"))
        }
        guard version == QuireCrypto.formatVersion else { return .failure(.unsupportedFormatVersion(Int(version))) }
        guard let keyID = DottedForm.number(form.keyID) else {
            return .failure(.malformed("its key id is not a number"))
        }
        guard let key = try? keys.key(keyID) else { return .failure(.unknownKeyID(keyID)) }
        guard let box = Sodium.bytes(base64URL: form.rest) else {
            return .failure(.malformed("its ciphertext is not base64url"))
        }
        guard box.count >= Sodium.aeadOverhead else {
            return .failure(.malformed("it is truncated: \(box.count) bytes, fewer than a nonce and a tag"))
        }
        let associatedData = AssociatedData.field(keyID: keyID, item: item, field: field)
        var opened = false
        let length = box.count - Sodium.aeadOverhead
        let value = [UInt8](unsafeUninitializedCapacity: length) { storage, count in
            let output = UnsafeMutableBufferPointer(rebasing: storage[..<length])
            opened = box.withUnsafeBufferPointer { box in
                Sodium.open(box, associatedData: associatedData, key: key.sealing, into: output)
            }
            count = opened ? length : 0
        }
        return opened ? .success(value) : .failure(.failedToOpen(keyID: keyID))
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
