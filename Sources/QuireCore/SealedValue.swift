/// A field value as an encrypted account's server keeps it: the ciphertext, which only the
/// account's devices can open, beside a keyed MAC of the plain value, which is all the server
/// compares when a conditional write names the value a device changed the field from.
///
/// Both parts are ASCII made by QuireCrypto: `v1.<key id>.<base64url>` and
/// `m1.<key id>.<base64url>`. The server checks only their shape (it cannot do more); a device
/// opens the text bound to its item and field, so a server that moves or alters one is caught.
public struct SealedValue: Hashable, Sendable {
    /// The sealed value (`FieldCipher`'s form).
    public var text: String
    /// The keyed MAC of the plain value (`ValueMAC`'s form).
    public var mac: String

    public init(text: String, mac: String) {
        self.text = text
        self.mac = mac
    }

    /// The longest sealed text a field may take: a 1 MiB body grows by a third in base64, with
    /// room for the nonce, tag and prefix.
    public static let maxTextBytes = 1_500_000

    /// Whether both parts have the shape a Quire device writes: the format letter and digits,
    /// a key id, then base64url, nothing else; bounded in size. What a server can check of a
    /// value it cannot read.
    public var isWellFormed: Bool {
        SealedValue.hasShape(text, letter: UInt8(ascii: "v"), maxBytes: SealedValue.maxTextBytes)
            && SealedValue.hasShape(mac, letter: UInt8(ascii: "m"), maxBytes: 64)
    }

    /// `<letter><digits>.<digits>.<base64url>`, at most `maxBytes` bytes.
    public static func hasShape(_ text: String, letter: UInt8, maxBytes: Int) -> Bool {
        let bytes = text.utf8
        guard bytes.count <= maxBytes, bytes.first == letter else { return false }
        var part = 0
        var partLength = 0
        for byte in bytes.dropFirst() {
            if byte == UInt8(ascii: "."), part < 2 {
                guard partLength > 0 else { return false }
                part += 1
                partLength = 0
                continue
            }
            let digit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
            let base64 =
                digit || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: "_")
            guard part < 2 ? digit : base64 else { return false }
            partLength += 1
        }
        return part == 2 && partLength > 0
    }
}
