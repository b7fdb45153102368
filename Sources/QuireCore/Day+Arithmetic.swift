/// Calendar arithmetic on `Day`, with the proleptic Gregorian rules and no clock or time zone:
/// what dates in words, recurrence and agenda ranges are computed with.
extension Day {
    /// Days since 1970-01-01 (negative before it).
    public var ordinal: Int {
        Int(Timestamp.daysFromCivil(year: Int64(year), month: Int64(month), day: Int64(day)))
    }

    /// The day `ordinal` days after 1970-01-01; nil outside the years 1 to 9999.
    public init?(ordinal: Int) {
        let (year, month, day) = Timestamp.civil(fromDays: Int64(ordinal))
        self.init(year: Int(year), month: Int(month), day: Int(day))
    }

    /// 1 for Monday through 7 for Sunday (ISO 8601).
    public var weekday: Int {
        // 1970-01-01 was a Thursday (4).
        let offset = (ordinal + 3) % 7
        return (offset < 0 ? offset + 7 : offset) + 1
    }

    /// This day moved by `count` days; nil outside the years 1 to 9999.
    public func adding(days count: Int) -> Day? {
        Day(ordinal: ordinal + count)
    }

    /// This day moved by `count` months, on the same day of the month or the month's last day
    /// when it has fewer (January 31 plus one month is the end of February).
    public func adding(months count: Int) -> Day? {
        let index = year * 12 + (month - 1) + count
        let (newYear, newMonth) = (index / 12, index % 12 + 1)
        guard (1...9999).contains(newYear) else { return nil }
        return Day(year: newYear, month: newMonth, day: min(day, Day.daysIn(month: newMonth, year: newYear)))
    }

    /// This day moved by `count` years (February 29 becomes the 28th in a common year).
    public func adding(years count: Int) -> Day? {
        adding(months: count * 12)
    }

    /// The Sunday that ends this day's week (weeks start on Monday, as ISO 8601 has them).
    public var endOfWeek: Day? { adding(days: 7 - weekday) }

    /// The last day of this day's month.
    public var endOfMonth: Day {
        Day(year: year, month: month, day: Day.daysIn(month: month, year: year))!
    }

    /// December 31 of this day's year.
    public var endOfYear: Day { Day(year: year, month: 12, day: 31)! }
}
