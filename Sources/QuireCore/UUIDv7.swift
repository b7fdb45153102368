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
        let hex = bytes.map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }
        return hex[0..<4].joined() + "-" + hex[4..<6].joined() + "-" + hex[6..<8].joined() + "-"
            + hex[8..<10].joined() + "-" + hex[10..<16].joined()
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
