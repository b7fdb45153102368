import Foundation

/// Makes UUIDv7 identifiers (RFC 9562): 48 bits of Unix milliseconds, then randomness.
///
/// Ids sort by creation time, so "newest first" is an id sort and no clock decides anything
/// later. Within one millisecond the generator counts up in the 12 `rand_a` bits, so ids made by
/// one generator are strictly increasing even when the clock stands still or steps back.
/// Time and randomness are passed in: the core has no clock.
public struct UUIDv7Generator: Sendable {
    private var lastMilliseconds: UInt64 = 0
    private var counter: UInt16 = 0

    public init() {}

    /// The next id for the instant `now`, as lowercase hyphenated text.
    public mutating func next(now: Date, using random: inout some RandomNumberGenerator) -> String {
        var milliseconds = UInt64(max(0, now.timeIntervalSince1970 * 1000))
        if milliseconds <= lastMilliseconds {
            milliseconds = lastMilliseconds
            if counter < 0x0FFF {
                counter += 1
            } else {
                milliseconds += 1
                counter = UInt16.random(in: 0...0x01FF, using: &random)
            }
        } else {
            counter = UInt16.random(in: 0...0x01FF, using: &random)
        }
        lastMilliseconds = milliseconds
        return UUIDv7Generator.format(milliseconds: milliseconds, counter: counter, tail: random.next())
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Formats the three parts of a UUIDv7: the low 48 bits of `milliseconds`, the low 12 of
    /// `counter` (`rand_a`), and the low 62 of `tail` (`rand_b`, after the variant's two bits).
    public static func format(milliseconds: UInt64, counter: UInt16, tail: UInt64) -> String {
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<6 {
            bytes[index] = UInt8(truncatingIfNeeded: milliseconds >> (8 * UInt64(5 - index)))
        }
        bytes[6] = 0x70 | UInt8(truncatingIfNeeded: (counter >> 8) & 0x0F)
        bytes[7] = UInt8(truncatingIfNeeded: counter)
        for index in 8..<16 {
            bytes[index] = UInt8(truncatingIfNeeded: tail >> (8 * UInt64(15 - index)))
        }
        bytes[8] = 0x80 | (bytes[8] & 0x3F)
        // Straight to the 36 bytes of text: ids are made for every item and op, and an import
        // makes two per entry, so this must cost next to nothing.
        let digits = hexDigits
        var text = [UInt8]()
        text.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The Unix milliseconds written in a UUIDv7's first 48 bits; nil for another kind of id.
    public static func milliseconds(ofID id: String) -> UInt64? {
        let utf8 = Array(id.utf8)
        guard utf8.count == 36, utf8[14] == UInt8(ascii: "7") else { return nil }
        return UInt64(String(decoding: utf8[0..<8] + utf8[9..<13], as: UTF8.self), radix: 16)
    }

    /// An item's creation time: the instant written in its UUIDv7 id, which is what the server
    /// takes as `createdAt`, so every device holds the same one without sending it. Not
    /// the clock at the create: the generator moves an id past the clock when it runs out of
    /// counter within a millisecond or the clock steps back. Nil for ids of other versions.
    public static func creationTime(ofID id: String) -> Date? {
        milliseconds(ofID: id).map { Date(timeIntervalSince1970: Double($0) / 1000) }
    }

    /// `id` with the instant written in it replaced by `date`'s millisecond and every other bit
    /// kept: a new id for something made at `date` in the past (an imported entry), as unique
    /// as `id` is, which a generator that only counts forward cannot make.
    public static func id(_ id: String, retimedTo date: Date) -> String {
        let milliseconds = UInt64(max(0, min((date.timeIntervalSince1970 * 1000).rounded(.down), 0xFFFF_FFFF_FFFF)))
        var text = Array(id.utf8)
        guard text.count == 36 else { return id }
        let positions = [0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12]
        for (digit, position) in positions.enumerated() {
            text[position] = hexDigits[Int(milliseconds >> UInt64(4 * (11 - digit)) & 0xF)]
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// True when `text` is a UUID in canonical hyphenated form (any version, any case).
    public static func isValid(_ text: String) -> Bool {
        let utf8 = Array(text.utf8)
        guard utf8.count == 36 else { return false }
        for (index, byte) in utf8.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                if byte != UInt8(ascii: "-") { return false }
            } else if !((byte >= 48 && byte <= 57) || (byte >= 97 && byte <= 102) || (byte >= 65 && byte <= 70)) {
                return false
            }
        }
        return true
    }
}
