import Foundation
import QuireCore
import Testing

/// Dates in words (SPEC: Items), and the calendar arithmetic under them, checked against
/// Foundation's Gregorian calendar, which shares none of their code.
@Suite struct DateWordsTests {
    static let thursday = Day("2026-11-26")!

    static func day(_ text: String) -> Day { Day(text)! }

    @Test(arguments: [
        ("today", "2026-11-26"), ("TODAY", "2026-11-26"), (" tomorrow ", "2026-11-27"), ("yesterday", "2026-11-25"),
        ("fri", "2026-11-27"), ("friday", "2026-11-27"), ("thu", "2026-12-03"), ("Thursday", "2026-12-03"),
        ("wed", "2026-12-02"), ("mon", "2026-11-30"), ("sun", "2026-11-29"), ("tues", "2026-12-01"),
        ("eow", "2026-11-29"), ("eom", "2026-11-30"), ("eoy", "2026-12-31"),
        ("+3d", "2026-11-29"), ("+2w", "2026-12-10"), ("+1m", "2026-12-26"), ("+1y", "2027-11-26"),
        ("-1d", "2026-11-25"), ("+0d", "2026-11-26"), ("2027-02-28", "2027-02-28"), ("2028-02-29", "2028-02-29"),
    ])
    func eachFormNamesTheDayItShould(_ text: String, _ expected: String) throws {
        #expect(try DateWords.day(text, today: DateWordsTests.thursday) == DateWordsTests.day(expected))
    }

    @Test func monthEndsLeapYearsAndWeekStartsAreTheEdges() throws {
        let january31 = DateWordsTests.day("2026-01-31")
        #expect(try DateWords.day("+1m", today: january31) == DateWordsTests.day("2026-02-28"))
        #expect(try DateWords.day("+1m", today: DateWordsTests.day("2028-01-31")) == DateWordsTests.day("2028-02-29"))
        #expect(try DateWords.day("+1y", today: DateWordsTests.day("2028-02-29")) == DateWordsTests.day("2029-02-28"))
        #expect(try DateWords.day("+4y", today: DateWordsTests.day("2028-02-29")) == DateWordsTests.day("2032-02-29"))
        #expect(try DateWords.day("eom", today: DateWordsTests.day("2028-02-03")) == DateWordsTests.day("2028-02-29"))
        #expect(try DateWords.day("eom", today: DateWordsTests.day("2100-02-03")) == DateWordsTests.day("2100-02-28"))
        #expect(try DateWords.day("+1d", today: DateWordsTests.day("2026-12-31")) == DateWordsTests.day("2027-01-01"))
        // A week ends on Sunday: on a Sunday, eow is that day; on a Monday, six days on.
        #expect(try DateWords.day("eow", today: DateWordsTests.day("2026-11-29")) == DateWordsTests.day("2026-11-29"))
        #expect(try DateWords.day("eow", today: DateWordsTests.day("2026-11-30")) == DateWordsTests.day("2026-12-06"))
        // A weekday is the next one after today, never today.
        #expect(try DateWords.day("sun", today: DateWordsTests.day("2026-11-29")) == DateWordsTests.day("2026-12-06"))
        #expect(try DateWords.day("mon", today: DateWordsTests.day("2026-11-29")) == DateWordsTests.day("2026-11-30"))
    }

    @Test func whatIsNotADateSaysWhichAndWhy() {
        #expect(throws: DateWords.Failure.noSuchDay("2026-02-30")) {
            try DateWords.day("2026-02-30", today: DateWordsTests.thursday)
        }
        #expect(throws: DateWords.Failure.noSuchDay("2027-02-29")) {
            try DateWords.day("2027-02-29", today: DateWordsTests.thursday)
        }
        for text in ["", "next week", "+d", "3d", "+3x", "2026-1-5", "26-11-26", "++3d", "+3.5d"] {
            #expect(throws: DateWords.Failure.notADate(text), "\(text)") {
                try DateWords.day(text, today: DateWordsTests.thursday)
            }
        }
        #expect(throws: DateWords.Failure.outOfRange("+99999999d")) {
            try DateWords.day("+99999999d", today: DateWordsTests.thursday)
        }
        #expect(throws: DateWords.Failure.outOfRange("+8000y")) {
            try DateWords.day("+8000y", today: DateWordsTests.thursday)
        }
        #expect(DateWords.Failure.noSuchDay("2026-02-30").description == "no such day: 2026-02-30")
    }

    /// Every day from 1900 to 2100 (and a sample far beyond), against Foundation's calendar:
    /// the day count, the weekday, and adding days, months and years.
    @Test func theArithmeticAgreesWithFoundationsCalendar() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        func date(_ day: Day) -> Date {
            calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day))!
        }
        func day(_ date: Date) -> Day {
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            return Day(year: parts.year!, month: parts.month!, day: parts.day!)!
        }
        let start = DateWordsTests.day("1900-01-01")
        let end = DateWordsTests.day("2100-12-31")
        var checked = 0
        var ordinal = start.ordinal
        while ordinal <= end.ordinal {
            let mine = try #require(Day(ordinal: ordinal))
            let theirs = date(mine)
            #expect(Int(theirs.timeIntervalSince1970 / 86_400) == ordinal)
            // Foundation counts Sunday as 1.
            #expect(mine.weekday == (calendar.component(.weekday, from: theirs) + 5) % 7 + 1)
            if ordinal % 7 == 0 {
                // The same day of the target month, or that month's last day (its length as
                // Foundation counts it): Foundation's own month adding does not clamp alike.
                for months in [1, 2, 11, 12, 13, -1, -25] {
                    let index = mine.year * 12 + mine.month - 1 + months
                    let first = date(Day(year: index / 12, month: index % 12 + 1, day: 1)!)
                    let length = calendar.range(of: .day, in: .month, for: first)!.count
                    let expected = day(calendar.date(byAdding: .day, value: min(mine.day, length) - 1, to: first)!)
                    #expect(mine.adding(months: months) == expected, "\(mine) + \(months) months")
                }
            }
            checked += 1
            ordinal += 1
        }
        #expect(checked == 73_414)
        for text in ["0001-01-01", "0400-02-29", "1582-10-10", "9999-12-31"] {
            let far = DateWordsTests.day(text)
            #expect(Day(ordinal: far.ordinal) == far)
        }
        #expect(Day(ordinal: DateWordsTests.day("9999-12-31").ordinal + 1) == nil)
    }
}
