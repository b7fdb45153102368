/// The second way into a key ring: 256 random bits, shown once as text a person writes down
/// and types back on a new device when the passphrase is lost.
///
/// The text is Crockford's base32 (digits and letters without I, L, O and U, so nothing reads
/// as something else) of the 32 bytes and a 3-byte checksum: 56 characters in 8 groups of 7,
/// `XXXXXXX-XXXXXXX-…`. Parsing ignores spaces, dashes and case and reads I and L as 1, O as 0;
/// the checksum catches a typo (with odds of 1 in 16 million of missing one) before any
/// cryptography runs, so a mistyped key is told apart from the key of another account.
public struct RecoveryKey: Sendable, CustomStringConvertible {
    static let keyBytes = 32
    static let checksumBytes = 3
    static let characters = (keyBytes + checksumBytes) * 8 / 5
    static let groupLength = 7
    private static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ".utf8)

    let bytes: SecretBytes

    init(random: some RandomSource) {
        bytes = SecretBytes(random: Self.keyBytes, from: random)
    }

    /// The key in `text`, as `text` shows it or typed back with other spacing, dashes or case.
    public init(parsing text: String) throws(RecoveryKeyError) {
        var values: [UInt8] = []
        values.reserveCapacity(Self.characters)
        defer { wipe(&values) }
        for character in text {
            if character.isWhitespace || character == "-" { continue }
            guard let value = Self.value(of: character) else { throw .invalidCharacter(character) }
            values.append(value)
        }
        guard values.count == Self.characters else { throw .wrongLength(values.count) }
        var payload = Self.regroup(values, from: 5, to: 8)
        defer { wipe(&payload) }
        let key = payload.prefix(Self.keyBytes)
        guard Self.checksum(of: key) == Array(payload.suffix(Self.checksumBytes)) else { throw .typo }
        bytes = SecretBytes(copying: key)
    }

    /// The text to show once: 8 groups of 7 characters joined by dashes.
    public var text: String {
        var payload = bytes.withUnsafeBytes { Array($0) }
        payload += Self.checksum(of: payload)
        var values = Self.regroup(payload, from: 8, to: 5)
        defer {
            wipe(&payload)
            wipe(&values)
        }
        let characters = values.map { Self.alphabet[Int($0)] }
        let groups = stride(from: 0, to: characters.count, by: Self.groupLength).map {
            String(decoding: characters[$0..<$0 + Self.groupLength], as: UTF8.self)
        }
        return groups.joined(separator: "-")
    }

    /// Never the key itself: a recovery key that reaches a log by accident shows nothing.
    public var description: String { "RecoveryKey(hidden)" }

    /// The first 3 bytes of BLAKE2b of the key under a label of its own.
    private static func checksum(of key: some Collection<UInt8>) -> [UInt8] {
        var message = AssociatedData(label: "quire.recovery-key", capacity: key.count)
        message.appendRaw(key)
        defer { message.zeroBytes() }
        return Array(Sodium.hash(message.bytes, count: 16).prefix(checksumBytes))
    }

    /// The 5-bit value of a typed character, reading I and L as 1 and O as 0; nil when it is
    /// not one of the alphabet's (U, punctuation, letters of other scripts).
    private static func value(of character: Character) -> UInt8? {
        guard let ascii = character.asciiValue else { return nil }
        let upper = (ascii >= 0x61 && ascii <= 0x7a) ? ascii - 0x20 : ascii
        let read: UInt8 =
            switch upper {
            case UInt8(ascii: "I"), UInt8(ascii: "L"): UInt8(ascii: "1")
            case UInt8(ascii: "O"): UInt8(ascii: "0")
            default: upper
            }
        return alphabet.firstIndex(of: read).map { UInt8($0) }
    }

    /// `values` of `from` bits each regrouped into values of `to` bits, most significant bit
    /// first: bytes into 5-bit digits and back (35 bytes are exactly 56 digits, so no bits are
    /// left over either way).
    private static func regroup(_ values: [UInt8], from: Int, to: Int) -> [UInt8] {
        var regrouped: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for value in values {
            buffer = buffer << UInt32(from) | UInt32(value)
            bits += from
            while bits >= to {
                bits -= to
                regrouped.append(UInt8(buffer >> UInt32(bits) & (1 << UInt32(to) - 1)))
            }
        }
        return regrouped
    }
}

/// Why typed text is not a recovery key; found before any cryptography runs.
public enum RecoveryKeyError: Error, Hashable, Sendable, CustomStringConvertible {
    case invalidCharacter(Character)
    case wrongLength(Int)
    case typo

    public var description: String {
        switch self {
        case .invalidCharacter(let character):
            "\"\(character)\" is not in a recovery key: it has digits and the letters A-Z except U"
        case .wrongLength(let count):
            "a recovery key has \(RecoveryKey.characters) characters (not counting spaces and dashes); "
                + "this one has \(count)"
        case .typo: "the recovery key has a typo: its last characters, a checksum, do not match the rest"
        }
    }
}
