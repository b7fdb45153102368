import Foundation

/// A keyed MAC of a field value, bound to its item and field: what the server compares for a
/// conditional write (the `from` value a device saw against the value it holds) without
/// learning either value. Equal values in different items or fields give different MACs, so
/// the server cannot tell which items share a title.
///
/// Form: `m1.<key id>.<base64url(16 bytes)>`. MACs under different key ids never match, even of
/// equal values: after a rotation the first write of each field may be refused as a conflict,
/// which the device merges as any other.
public enum ValueMAC {
    static let bytes = 16

    /// The MAC of `value` for `field` of `item` under the current data key.
    public static func mac(of value: Data, item: String, field: String, keys: DataKeys) -> String {
        mac(of: value, item: item, field: field, key: keys.current)
    }

    /// The MAC under the data key `keyID` (to match one the server holds from before a rotation).
    public static func mac(of value: Data, item: String, field: String, keys: DataKeys, keyID: UInt32)
        throws(KeyRingError) -> String
    {
        mac(of: value, item: item, field: field, key: try keys.key(keyID))
    }

    /// Whether `mac` is the MAC of `value` for `field` of `item` under the data key it names.
    /// The digest is compared in constant time, not spelled out and compared as text; the
    /// received MAC, the message and the digest live in memory of the call's own: a first pull
    /// checks one for every field of every item. A MAC not in the form `mac` writes, or under a
    /// key id this device does not hold, does not match.
    public static func matches(_ mac: String, of value: [UInt8], item: String, field: String, keys: DataKeys) -> Bool {
        var text = mac
        return text.withUTF8 { utf8 in
            guard let form = DottedForm(utf8),
                form.format(letter: UInt8(ascii: "m")) == UInt32(QuireCrypto.formatVersion),
                let keyID = DottedForm.number(form.keyID), let key = try? keys.key(keyID),
                PublicBase64URL.decodedCount(form.rest.count) == bytes
            else { return false }
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 * bytes) { digests in
                let received = UnsafeMutableBufferPointer(rebasing: digests[..<bytes])
                let expected = UnsafeMutableBufferPointer(rebasing: digests[bytes...])
                guard PublicBase64URL.decode(form.rest, into: received) else { return false }
                value.withUnsafeBufferPointer { digest(of: $0, item: item, field: field, key: key, into: expected) }
                return Sodium.equalInConstantTime(UnsafeBufferPointer(received), UnsafeBufferPointer(expected))
            }
        }
    }

    private static func mac(of value: Data, item: String, field: String, key: DataKey) -> String {
        let digest = [UInt8](unsafeUninitializedCapacity: bytes) { digest, written in
            value.withUnsafeBytes { value in
                Self.digest(of: value.bindMemory(to: UInt8.self), item: item, field: field, key: key, into: digest)
            }
            written = bytes
        }
        return "m\(QuireCrypto.formatVersion).\(key.id).\(Sodium.base64URL(digest))"
    }

    /// Keyed BLAKE2b of the value's place followed by the value, into `digest`; the message is
    /// built in memory of the call's own.
    private static func digest(
        of value: UnsafeBufferPointer<UInt8>, item: String, field: String, key: DataKey,
        into digest: UnsafeMutableBufferPointer<UInt8>
    ) {
        let placeCount = AssociatedData.placeCount(label: AssociatedData.macLabel, item: item, field: field)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: placeCount + value.count) { message in
            let written = AssociatedData.writePlace(
                label: AssociatedData.macLabel, keyID: key.id, item: item, field: field, into: message)
            let end = UnsafeMutableBufferPointer(rebasing: message[written...]).initialize(fromContentsOf: value)
            Sodium.keyedHash(UnsafeBufferPointer(rebasing: message[..<(written + end)]), key: key.mac, into: digest)
        }
    }
}
