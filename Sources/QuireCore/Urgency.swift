import Foundation

/// How urgent an open task is, for `quire next` (SPEC: CLI): the sum of three parts, so that a
/// person can tell why one task comes before another.
///
/// - **Due**: 12 when overdue, 10 when due today, then falling in a straight line to 0 at
///   fourteen days away (tomorrow is about 9.3, a week away 5); nothing without a due date.
/// - **Priority**: high 6, medium 3.9, low 1.8 (Taskwarrior's weights, so a switcher's
///   sense of "high" carries over).
/// - **Age**: up to 2, growing evenly over the first year since the task was created, so
///   that old tasks surface instead of sinking.
///
/// Ties go to the earlier due date, then to the older task.
public enum Urgency {
    public static let overdue = 12.0
    public static let dueToday = 10.0
    /// Days ahead at which a due date stops counting.
    public static let horizonDays = 14
    public static let ageWeight = 2.0

    public static func weight(of priority: Priority) -> Double {
        switch priority {
        case .high: 6
        case .medium: 3.9
        case .low: 1.8
        case .none: 0
        }
    }

    /// The score of a task with these fields on `today` at `now`.
    public static func score(due: Day?, priority: Priority, createdAt: Date, today: Day, now: Date) -> Double {
        var score = weight(of: priority)
        if let due {
            let days = due.ordinal - today.ordinal
            if days < 0 {
                score += overdue
            } else if days < horizonDays {
                score += dueToday * (1 - Double(days) / Double(horizonDays))
            }
        }
        let age = max(0, now.timeIntervalSince(createdAt)) / 86_400
        score += ageWeight * min(age, 365) / 365
        return score
    }

    public static func score(of item: Item, today: Day, now: Date) -> Double {
        score(due: item.due, priority: item.priority, createdAt: item.createdAt, today: today, now: now)
    }

    /// The order of `quire next`: higher score first, then earlier due date, then older.
    public static func precedes(
        _ a: (score: Double, due: Day?, id: String), _ b: (score: Double, due: Day?, id: String)
    ) -> Bool {
        if a.score != b.score { return a.score > b.score }
        switch (a.due, b.due) {
        case (let x?, let y?) where x != y: return x < y
        case (.some, nil): return true
        case (nil, .some): return false
        default: return a.id < b.id
        }
    }
}
