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
    /// The digest is compared in constant time, not spelled out and compared as text: a first
    /// pull checks one for every field of every item. A MAC not in the form `mac` writes, or under
    /// a key id this device does not hold, does not match.
    public static func matches(
        _ mac: String, of value: some Collection<UInt8>, item: String, field: String, keys: DataKeys
    ) -> Bool {
        var text = mac
        return text.withUTF8 { utf8 in
            guard let form = DottedForm(utf8),
                form.format(letter: UInt8(ascii: "m")) == UInt32(QuireCrypto.formatVersion),
                let keyID = DottedForm.number(form.keyID), let key = try? keys.key(keyID),
                let received = Sodium.bytes(base64URL: form.rest), received.count == bytes
            else { return false }
            return Sodium.equalInConstantTime(received, digest(of: value, item: item, field: field, key: key))
        }
    }

    private static func mac(of value: Data, item: String, field: String, key: DataKey) -> String {
        "m\(QuireCrypto.formatVersion).\(key.id).\(Sodium.base64URL(digest(of: value, item: item, field: field, key: key)))"
    }

    private static func digest(of value: some Collection<UInt8>, item: String, field: String, key: DataKey) -> [UInt8] {
        var message = AssociatedData.mac(keyID: key.id, item: item, field: field, valueCount: value.count)
        message.appendRaw(value)
        return Sodium.keyedHash(message.bytes, key: key.mac, count: bytes)
    }
}
