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

    /// Formats the three parts of a UUIDv7; `tail` supplies the 62 random bits of `rand_b`.
    static func format(milliseconds: UInt64, counter: UInt16, tail: UInt64) -> String {
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
