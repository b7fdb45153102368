import Foundation

/// RFC 3339 text for instants, the one format Quire writes times in (JSON, the store, the wire).
///
/// Written with millisecond precision in UTC (`2026-11-22T10:00:00.123Z`) so that text order is
/// time order; read with or without fractional seconds and with any offset. That one written
/// shape is formatted and parsed by hand: the store reads thousands of times per listing and
/// sync writes two per item it sends or receives. Anything else goes through Foundation.
public enum Timestamp {
    private static let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)
    private static let withoutFraction = Date.ISO8601FormatStyle(timeZone: .gmt)

    /// Parses RFC 3339 text; nil when it is not a valid timestamp.
    public static func date(from text: String) -> Date? {
        var text = text
        if let date = text.withUTF8({ parseCanonical($0) }) { return date }
        if let date = try? withFraction.parse(text) { return date }
        if let date = try? withoutFraction.parse(text) { return date }
        // Offsets other than Z: the format styles above accept them too on current Foundation;
        // a last try with the general parser keeps older runtimes working.
        if let date = try? Date(text, strategy: .iso8601) { return date }
        return nil
    }

    /// Formats an instant as RFC 3339 in UTC with milliseconds: `YYYY-MM-DDTHH:MM:SS.mmmZ`.
    public static func string(from date: Date) -> String {
        var bytes = [UInt8]()
        bytes.reserveCapacity(24)
        append(date, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `YYYY-MM-DDTHH:MM:SS.mmmZ` in UTC to a byte buffer.
    public static func append(_ date: Date, to bytes: inout [UInt8]) {
        // Down to the millisecond, as Foundation's formatter does, except that a time within a
        // rounding error of a whole millisecond is that millisecond: a time read back from text
        // (seconds as a Double) can land a hair below the millisecond it was written with.
        let scaled = date.timeIntervalSince1970 * 1000
        let nearest = scaled.rounded()
        let slack = max(0.002, nearest.ulp * 4)
        let milliseconds = Int64(abs(scaled - nearest) <= slack ? nearest : scaled.rounded(.down))
        var days = milliseconds / 86_400_000
        var rest = milliseconds % 86_400_000
        if rest < 0 {
            rest += 86_400_000
            days -= 1
        }
        let (year, month, day) = civil(fromDays: days)
        guard (0...9999).contains(year) else {
            bytes.append(contentsOf: withFraction.format(date).utf8)
            return
        }
        func digits(_ value: Int64, _ width: Int) {
            var divisor: Int64 = 1
            for _ in 1..<width { divisor *= 10 }
            var value = value
            while divisor > 0 {
                bytes.append(UInt8(48 + (value / divisor) % 10))
                value %= divisor
                divisor /= 10
            }
        }
        digits(year, 4)
        bytes.append(UInt8(ascii: "-"))
        digits(month, 2)
        bytes.append(UInt8(ascii: "-"))
        digits(day, 2)
        bytes.append(UInt8(ascii: "T"))
        digits(rest / 3_600_000, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(rest / 60_000 % 60, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(rest / 1000 % 60, 2)
        bytes.append(UInt8(ascii: "."))
        digits(rest % 1000, 3)
        bytes.append(UInt8(ascii: "Z"))
    }

    private static func parseCanonical(_ utf8: UnsafeBufferPointer<UInt8>) -> Date? {
        guard utf8.count == 24, utf8[4] == UInt8(ascii: "-"), utf8[7] == UInt8(ascii: "-"),
            utf8[10] == UInt8(ascii: "T"),
            utf8[13] == UInt8(ascii: ":"),
            utf8[16] == UInt8(ascii: ":"), utf8[19] == UInt8(ascii: "."), utf8[23] == UInt8(ascii: "Z")
        else { return nil }
        func number(_ start: Int, _ count: Int) -> Int64? {
            var value: Int64 = 0
            for index in start..<(start + count) {
                let byte = utf8[index]
                guard byte >= 48 && byte <= 57 else { return nil }
                value = value * 10 + Int64(byte - 48)
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
            let millisecond = number(20, 3),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let total = ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + millisecond
        return Date(timeIntervalSince1970: Double(total) / 1000)
    }

    /// Days since 1970-01-01 for a proleptic Gregorian date (Howard Hinnant's algorithm).
    public static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date of a day count since 1970-01-01.
    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthPart = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthPart + 2) / 5 + 1
        let month = monthPart < 10 ? monthPart + 3 : monthPart - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

extension KeyedDecodingContainer {
    /// The RFC 3339 time at `key`, nil when the key is absent or null; a text that is not one
    /// is an error naming the key.
    public func decodeTimeIfPresent(forKey key: Key) throws -> Date? {
        guard let text = try decodeIfPresent(String.self, forKey: key) else { return nil }
        guard let date = Timestamp.date(from: text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "not an RFC 3339 time: \(text)")
        }
        return date
    }

    /// The RFC 3339 time at `key`, which must be there.
    public func decodeTime(forKey key: Key) throws -> Date {
        guard let date = try decodeTimeIfPresent(forKey: key) else {
            throw DecodingError.valueNotFound(
                Date.self, .init(codingPath: codingPath + [key], debugDescription: "a time is required"))
        }
        return date
    }
}
