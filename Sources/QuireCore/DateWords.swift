/// Dates as people type them (SPEC: Items): `YYYY-MM-DD`, `today`, `tomorrow`, `yesterday`,
/// a weekday (`mon` … `sun`, or spelled out: the next one after today), `eow`, `eom`, `eoy`
/// (the end of this week, month or year; weeks end on Sunday), and `+3d`, `+2w`, `+1m`, `+1y`
/// (or `-` for the past) counted from today.
///
/// The one parser every place that takes a date uses (command-line flags, the details line,
/// filters); `today` is passed in, so the core needs no clock or time zone.
public enum DateWords {
    /// Why a date could not be read, as one line a person can act on.
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// `YYYY-MM-DD` naming a day the calendar does not have.
        case noSuchDay(String)
        /// Neither a date nor a word for one.
        case notADate(String)
        /// Not `YYYY-MM-DD` where nothing else is taken (a file being imported, a value without
        /// a today to count from).
        case notACalendarDate(String)
        /// A date before the year 1 or after 9999.
        case outOfRange(String)

        public var description: String {
            switch self {
            case .noSuchDay(let text): "no such day: \(text)"
            case .notADate(let text):
                "'\(text)' is not a date: use YYYY-MM-DD, today, tomorrow, yesterday, mon…sun, eow, eom, eoy, "
                    + "or a count from today such as +3d, +2w, +1m, +1y"
            case .notACalendarDate(let text): "invalid date '\(text)': use YYYY-MM-DD"
            case .outOfRange(let text): "'\(text)' falls outside the years 1 to 9999"
            }
        }
    }

    /// The day `text` names, counted from `today`; without a today, only `YYYY-MM-DD`.
    public static func day(_ text: String, today: Day?) throws(Failure) -> Day {
        let word = text.trimmingWhitespace().lowercased()
        if let exact = try calendarDate(word, as: text) { return exact }
        guard let today else { throw .notACalendarDate(text) }
        let found: Day?
        switch word {
        case "today": found = today
        case "tomorrow": found = today.adding(days: 1)
        case "yesterday": found = today.adding(days: -1)
        case "eow": found = today.endOfWeek
        case "eom": found = today.endOfMonth
        case "eoy": found = today.endOfYear
        default:
            if let weekday = weekdays[word] {
                let ahead = (weekday - today.weekday + 6) % 7 + 1
                found = today.adding(days: ahead)
            } else if let count = try offset(word, as: text) {
                found = count.apply(to: today)
            } else {
                throw .notADate(text)
            }
        }
        guard let found else { throw .outOfRange(text) }
        return found
    }

    /// `YYYY-MM-DD` read as a date, nil when `word` has another shape; throws for a day the
    /// calendar does not have.
    private static func calendarDate(_ word: String, as text: String) throws(Failure) -> Day? {
        guard Day.isWrittenAsDate(word) else { return nil }
        guard let day = Day(word) else { throw .noSuchDay(text) }
        return day
    }

    /// A count of days, weeks, months or years from today.
    private struct Offset {
        enum Unit: Character {
            case day = "d"
            case week = "w"
            case month = "m"
            case year = "y"
        }
        let count: Int
        let unit: Unit

        func apply(to today: Day) -> Day? {
            switch unit {
            case .day: today.adding(days: count)
            case .week: today.adding(days: count * 7)
            case .month: today.adding(months: count)
            case .year: today.adding(years: count)
            }
        }
    }

    /// `+3d`, `-2w`, `+1m`, `+1y`; nil when `word` has another shape.
    private static func offset(_ word: String, as text: String) throws(Failure) -> Offset? {
        guard let sign = word.first, sign == "+" || sign == "-", let last = word.last,
            let unit = Offset.Unit(rawValue: last)
        else { return nil }
        let digits = word.dropFirst().dropLast()
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        // More than 9999 years of days cannot land on a date anyway.
        guard digits.count <= 7, let magnitude = Int(digits) else { throw .outOfRange(text) }
        return Offset(count: sign == "-" ? -magnitude : magnitude, unit: unit)
    }

    /// Weekday names and their abbreviations, 1 for Monday through 7 for Sunday.
    private static let weekdays: [String: Int] = {
        let names = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
        var table: [String: Int] = [:]
        for (index, name) in names.enumerated() {
            table[name] = index + 1
            table[String(name.prefix(3))] = index + 1
        }
        table["tues"] = 2
        table["thur"] = 4
        table["thurs"] = 4
        return table
    }()
}
