import Foundation
import QuireCore
import Testing

@Suite struct RecurrenceTests {
    private func day(_ text: String) -> Day { Day(text)! }

    /// The dates a series falls on, starting from `first`, each computed from the one before
    /// with the rule that occurrence carries (as completing them one by one does).
    private func series(_ rule: String, from first: String, count: Int) -> [String] {
        var due = day(first)
        var recur = Recurrence(rule)!
        var dates = [first]
        for _ in 1..<count {
            guard let next = recur.next(after: due) else { break }
            (due, recur) = next
            dates.append(due.description)
        }
        return dates
    }

    @Test func rulesReadAndPrintInOneForm() throws {
        #expect(Recurrence("daily")?.description == "daily")
        #expect(Recurrence("WEEKLY")?.description == "weekly")
        #expect(Recurrence("1m")?.description == "monthly")
        #expect(Recurrence("1y")?.description == "yearly")
        #expect(Recurrence("3d")?.description == "3d")
        #expect(Recurrence("2w")?.description == "2w")
        #expect(Recurrence("6m")?.description == "6m")
        #expect(Recurrence("2y")?.description == "2y")
        #expect(Recurrence("monthly@31")?.anchorDay == 31)
        for bad in ["", "0d", "1000d", "3x", "d", "-2w", "weekly@31", "monthly@28", "monthly@", "2.5d", "fortnightly"] {
            #expect(Recurrence(bad) == nil, "\(bad)")
        }
        #expect(throws: ValidationError.invalidRecurrence("sometimes")) { try Validation.recurrence("sometimes") }
        #expect(try Validation.recurrence("none") == nil)
    }

    @Test func daysAndWeeksCountDays() {
        #expect(
            series("daily", from: "2026-12-30", count: 4) == ["2026-12-30", "2026-12-31", "2027-01-01", "2027-01-02"])
        #expect(series("3d", from: "2028-02-27", count: 3) == ["2028-02-27", "2028-03-01", "2028-03-04"])
        #expect(series("weekly", from: "2026-12-28", count: 3) == ["2026-12-28", "2027-01-04", "2027-01-11"])
        #expect(series("2w", from: "2028-02-22", count: 3) == ["2028-02-22", "2028-03-07", "2028-03-21"])
    }

    /// SPEC's example: January 31 monthly is due at February's end, then March 31 again.
    @Test func monthEndsClampAndComeBack() {
        #expect(
            series("monthly", from: "2026-01-31", count: 5)
                == ["2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30", "2026-05-31"])
        #expect(series("monthly", from: "2028-01-31", count: 3) == ["2028-01-31", "2028-02-29", "2028-03-31"])
        #expect(series("monthly", from: "2026-01-30", count: 3) == ["2026-01-30", "2026-02-28", "2026-03-30"])
        #expect(series("monthly", from: "2026-01-29", count: 3) == ["2026-01-29", "2026-02-28", "2026-03-29"])
        // A series that starts on the 28th stays on the 28th (February's end is no anchor).
        #expect(series("monthly", from: "2026-02-28", count: 3) == ["2026-02-28", "2026-03-28", "2026-04-28"])
        #expect(series("2m", from: "2026-12-31", count: 4) == ["2026-12-31", "2027-02-28", "2027-04-30", "2027-06-30"])
        #expect(series("6m", from: "2026-08-31", count: 3) == ["2026-08-31", "2027-02-28", "2027-08-31"])
        // Across a year end.
        #expect(series("monthly", from: "2026-11-30", count: 3) == ["2026-11-30", "2026-12-30", "2027-01-30"])
    }

    @Test func februaryTwentyNinthYearlyKeepsItsDay() {
        #expect(
            series("yearly", from: "2028-02-29", count: 6)
                == ["2028-02-29", "2029-02-28", "2030-02-28", "2031-02-28", "2032-02-29", "2033-02-28"])
        #expect(series("4y", from: "2028-02-29", count: 3) == ["2028-02-29", "2032-02-29", "2036-02-29"])
        // 2100 is not a leap year.
        #expect(series("4y", from: "2096-02-29", count: 3) == ["2096-02-29", "2100-02-28", "2104-02-29"])
        #expect(series("yearly", from: "2026-03-01", count: 3) == ["2026-03-01", "2027-03-01", "2028-03-01"])
    }

    /// The anchor an occurrence carries holds only while it sits on its month's clamped end:
    /// a due date moved by hand starts the series afresh from its own day.
    @Test func aMovedOccurrenceDropsTheAnchor() {
        let clamped = Recurrence("monthly@31")!
        #expect(clamped.next(after: day("2026-02-28"))?.due == day("2026-03-31"))
        #expect(clamped.next(after: day("2026-02-20"))?.due == day("2026-03-20"))
        #expect(clamped.next(after: day("2026-02-20"))?.rule == Recurrence("monthly"))
        #expect(Recurrence("daily")!.next(after: day("9999-12-31")) == nil)
    }

    /// Two devices derive the same next occurrence from the same completed one: same id, same
    /// content; the id is a UUIDv7 the server takes, and a different date gives another id.
    @Test func theNextOccurrenceIsAPureFunctionOfTheCompletedOne() throws {
        let created = Date(timeIntervalSince1970: 1_790_000_000)
        let task = Item(
            id: "019a0000-0000-7000-8000-000000000001", kind: .task, title: "Rent", body: "Pay it", tags: ["home"],
            done: true, due: day("2026-01-31"), priority: .high, project: "home", recur: Recurrence("monthly"),
            wait: day("2026-01-28"), scheduled: day("2026-01-30"), createdAt: created)
        let one = try #require(task.nextOccurrence(now: created.addingTimeInterval(5)))
        let two = try #require(task.nextOccurrence(now: created.addingTimeInterval(900)))
        #expect(one.id == two.id)
        #expect(one.hasSameContent(as: two))
        #expect(UUIDv7Generator.isValid(one.id))
        #expect(Array(one.id)[14] == "7")
        #expect(one.id != task.id)
        #expect(one.due == day("2026-02-28"))
        #expect(one.recur?.description == "monthly@31")
        #expect(one.wait == day("2026-02-25"))
        #expect(one.scheduled == day("2026-02-27"))
        #expect(!one.done && one.title == "Rent" && one.tags == ["home"] && one.project == "home")
        #expect(one.priority == .high)
        // Its time is its id's, as the server reads it; it sorts after the completed one.
        #expect(UUIDv7Generator.milliseconds(ofID: one.id) == UInt64(one.createdAt.timeIntervalSince1970 * 1000))
        #expect(one.id > task.id)
        // The occurrence after it has an id of its own.
        var next = one
        next.done = true
        let three = try #require(next.nextOccurrence(now: created))
        #expect(three.due == day("2026-03-31"))
        #expect(three.id != one.id)
        // Not a recurring task with a due date: nothing follows.
        var plain = task
        plain.recur = nil
        #expect(plain.nextOccurrence(now: created) == nil)
    }
}
