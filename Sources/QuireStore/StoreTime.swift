import Foundation
import QuireCore

/// RFC 3339 text for the store's own timestamps, kept to the millisecond (see `Timestamp`).
public enum StoreTime {
    /// The instant rounded down to a whole millisecond: the precision the store keeps.
    public static func truncated(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded(.down) / 1000)
    }

    /// `YYYY-MM-DDTHH:MM:SS.mmmZ` in UTC.
    public static func string(from date: Date) -> String {
        Timestamp.string(from: date)
    }

    /// Appends `YYYY-MM-DDTHH:MM:SS.mmmZ` in UTC to a byte buffer.
    public static func append(_ date: Date, to bytes: inout [UInt8]) {
        Timestamp.append(date, to: &bytes)
    }

    /// Parses RFC 3339 text: the store's own shape quickly, anything else through `Timestamp`.
    public static func date(from text: String) -> Date? {
        Timestamp.date(from: text)
    }
}
