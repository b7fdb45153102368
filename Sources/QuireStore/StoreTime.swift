import Foundation
import QuireCore

/// Fast RFC 3339 text for the store's own timestamps.
///
/// The store writes every time as `YYYY-MM-DDTHH:MM:SS.mmmZ` (the shape `Timestamp` writes) and
/// reads thousands of them per listing, so it formats and parses that one shape by hand and
/// falls back to `Timestamp` for anything else (times typed by people or other tools).
public enum StoreTime {
    /// The instant rounded down to a whole millisecond: the precision the store keeps.
    public static func truncated(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded(.down) / 1000)
    }

    /// `YYYY-MM-DDTHH:MM:SS.mmmZ` in UTC.
    public static func string(from date: Date) -> String {
        var bytes = [UInt8]()
        bytes.reserveCapacity(24)
        append(date, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `YYYY-MM-DDTHH:MM:SS.mmmZ` in UTC to a byte buffer.
    public static func append(_ date: Date, to bytes: inout [UInt8]) {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        var days = milliseconds / 86_400_000
        var rest = milliseconds % 86_400_000
        if rest < 0 {
            rest += 86_400_000
            days -= 1
        }
        let (year, month, day) = civil(fromDays: days)
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
        digits(year, 4); bytes.append(45)
        digits(month, 2); bytes.append(45)
        digits(day, 2); bytes.append(84)
        digits(rest / 3_600_000, 2); bytes.append(58)
        digits(rest / 60_000 % 60, 2); bytes.append(58)
        digits(rest / 1000 % 60, 2); bytes.append(46)
        digits(rest % 1000, 3); bytes.append(90)
    }

    /// Parses RFC 3339 text: the store's own shape quickly, anything else through `Timestamp`.
    public static func date(from text: String) -> Date? {
        var text = text
        if let date = text.withUTF8({ parseCanonical($0) }) { return date }
        return Timestamp.date(from: text)
    }

    private static func parseCanonical(_ utf8: UnsafeBufferPointer<UInt8>) -> Date? {
        guard utf8.count == 24, utf8[4] == 45, utf8[7] == 45, utf8[10] == 84, utf8[13] == 58,
              utf8[16] == 58, utf8[19] == 46, utf8[23] == 90
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
    static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
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
