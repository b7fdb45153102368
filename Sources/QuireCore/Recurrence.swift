/// A recurring task's rule (SPEC: Items, `recur`): `daily`, `weekly`, `monthly`, `yearly`, or a
/// count of days, weeks, months or years (`3d`, `2w`, `6m`, `2y`).
///
/// A monthly or yearly series keeps the day of the month it started on: January 31 monthly is
/// due February 28 (29 in a leap year), then March 31 again. The clamped occurrence cannot tell
/// 31 from 28 by its due date, so its rule carries the day it stands in for, written after an
/// `@` (`monthly@31`): the series' anchor travels with the item, and every device computes the
/// same next date from the completed occurrence alone.
public struct Recurrence: Hashable, Sendable, CustomStringConvertible {
    public enum Unit: Character, Sendable, CaseIterable {
        case day = "d"
        case week = "w"
        case month = "m"
        case year = "y"
    }

    public let unit: Unit
    /// At least 1 and at most `maxCount`.
    public let count: Int
    /// The day of the month a monthly or yearly series falls on when the month has it, kept
    /// only while an occurrence is clamped to a shorter month's last day; nil otherwise.
    public let anchorDay: Int?

    /// The largest count a rule takes (`999d`): more is surely a typo.
    public static let maxCount = 999

    public init?(unit: Unit, count: Int, anchorDay: Int? = nil) {
        guard (1...Self.maxCount).contains(count) else { return nil }
        if let anchorDay {
            guard unit == .month || unit == .year, (29...31).contains(anchorDay) else { return nil }
        }
        self.unit = unit
        self.count = count
        self.anchorDay = anchorDay
    }

    /// Reads a rule as people type it and as items store it (case-insensitive); nil when it is
    /// not one.
    public init?(_ text: String) {
        var word = Substring(text.trimmingWhitespace().lowercased())
        var anchor: Int?
        if let at = word.firstIndex(of: "@") {
            guard let day = Int(word[word.index(after: at)...]) else { return nil }
            anchor = day
            word = word[..<at]
        }
        let named: [Substring: Unit] = ["daily": .day, "weekly": .week, "monthly": .month, "yearly": .year]
        if let unit = named[word] {
            self.init(unit: unit, count: 1, anchorDay: anchor)
            return
        }
        guard let last = word.last, let unit = Unit(rawValue: last), word.count >= 2,
            word.dropLast().allSatisfy({ $0.isASCII && $0.isNumber }), let count = Int(word.dropLast())
        else { return nil }
        self.init(unit: unit, count: count, anchorDay: anchor)
    }

    /// The stored form: a name for a count of one (`weekly`), else the count and unit (`2w`),
    /// then `@` and the anchor day when there is one.
    public var description: String {
        let names: [Unit: String] = [.day: "daily", .week: "weekly", .month: "monthly", .year: "yearly"]
        let rule = count == 1 ? names[unit]! : "\(count)\(unit.rawValue)"
        return anchorDay.map { "\(rule)@\($0)" } ?? rule
    }

    /// The next occurrence of a series whose occurrence due `due` is completed: its due date
    /// and its rule (carrying the anchor day when that date is clamped to a month's end); nil
    /// past the year 9999.
    public func next(after due: Day) -> (due: Day, rule: Recurrence)? {
        switch unit {
        case .day:
            return due.adding(days: count).map { ($0, self.withAnchor(nil)) }
        case .week:
            return due.adding(days: 7 * count).map { ($0, self.withAnchor(nil)) }
        case .month, .year:
            let months = unit == .month ? count : 12 * count
            let anchor = anchor(of: due)
            let index = due.year * 12 + (due.month - 1) + months
            let (year, month) = (index / 12, index % 12 + 1)
            guard (1...9999).contains(year) else { return nil }
            let length = Day.daysIn(month: month, year: year)
            guard let next = Day(year: year, month: month, day: min(anchor, length)) else { return nil }
            return (next, withAnchor(next.day < anchor ? anchor : nil))
        }
    }

    /// The day of the month the series falls on: the carried anchor while `due` is the clamped
    /// last day of its month, else `due`'s own day (an occurrence moved by hand starts afresh).
    private func anchor(of due: Day) -> Int {
        guard let anchorDay, anchorDay > due.day, due == due.endOfMonth else { return due.day }
        return anchorDay
    }

    private func withAnchor(_ day: Int?) -> Recurrence {
        Recurrence(unit: unit, count: count, anchorDay: day) ?? self
    }
}

extension Recurrence: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let rule = Recurrence(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a recurrence rule: \(text)")
        }
        self = rule
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
