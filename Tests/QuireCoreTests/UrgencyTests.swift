import Foundation
import QuireCore
import Testing

/// `quire next`'s urgency: each part as the help documents it, and the order it gives.
@Suite struct UrgencyTests {
    static let today = Day("2026-11-26")!
    /// Noon on `today`, UTC.
    static let now = Date(timeIntervalSince1970: TimeInterval(today.ordinal) * 86_400 + 43_200)

    static func score(due: String? = nil, priority: Priority = .none, ageDays: Double = 0) -> Double {
        Urgency.score(
            due: due.flatMap(Day.init), priority: priority, createdAt: now.addingTimeInterval(-ageDays * 86_400),
            today: today, now: now)
    }

    @Test func eachPartIsWhatTheHelpSays() {
        #expect(Self.score() == 0)
        #expect(Self.score(due: "2026-11-20") == 12)
        #expect(Self.score(due: "2026-11-25") == 12)
        #expect(Self.score(due: "2026-11-26") == 10)
        #expect(abs(Self.score(due: "2026-11-27") - 10 * 13 / 14) < 1e-9)
        #expect(Self.score(due: "2026-12-03") == 5)
        #expect(Self.score(due: "2026-12-10") == 0)
        #expect(Self.score(due: "2027-06-01") == 0)
        #expect(Self.score(priority: .high) == 6)
        #expect(Self.score(priority: .medium) == 3.9)
        #expect(Self.score(priority: .low) == 1.8)
        #expect(abs(Self.score(ageDays: 365 / 2) - 1) < 1e-9)
        #expect(Self.score(ageDays: 365) == 2)
        #expect(Self.score(ageDays: 3000) == 2)
        // Created "in the future" (another device's clock) counts as new, not as negative age.
        #expect(Self.score(ageDays: -10) == 0)
    }

    @Test func overdueOutranksHighPriorityAndTiesGoToTheEarlierDueDate() {
        let overdue = (score: Self.score(due: "2026-11-20"), due: Day("2026-11-20"), id: "b")
        let high = (score: Self.score(priority: .high), due: Day?.none, id: "a")
        #expect(Urgency.precedes(overdue, high))
        let early = (score: 5.0, due: Day("2026-11-27"), id: "z")
        let late = (score: 5.0, due: Day("2026-11-28"), id: "a")
        let none = (score: 5.0, due: Day?.none, id: "0")
        #expect(Urgency.precedes(early, late))
        #expect(Urgency.precedes(late, none))
        #expect(!Urgency.precedes(none, late))
        #expect(Urgency.precedes((score: 5.0, due: Day?.none, id: "a"), (score: 5.0, due: Day?.none, id: "b")))
    }
}
