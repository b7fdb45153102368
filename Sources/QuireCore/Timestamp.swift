import Foundation

/// RFC 3339 text for instants, the one format Quire writes times in (JSON, the store, the wire).
///
/// Written with millisecond precision in UTC (`2026-11-22T10:00:00.123Z`) so that text order is
/// time order; read with or without fractional seconds and with any offset.
public enum Timestamp {
    private static let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)
    private static let withoutFraction = Date.ISO8601FormatStyle(timeZone: .gmt)

    /// Formats an instant as RFC 3339 in UTC with milliseconds.
    public static func string(from date: Date) -> String {
        withFraction.format(date)
    }

    /// Parses RFC 3339 text; nil when it is not a valid timestamp.
    public static func date(from text: String) -> Date? {
        if let date = try? withFraction.parse(text) { return date }
        if let date = try? withoutFraction.parse(text) { return date }
        // Offsets other than Z: the format styles above accept them too on current Foundation;
        // a last try with the general parser keeps older runtimes working.
        if let date = try? Date(text, strategy: .iso8601) { return date }
        return nil
    }
}
