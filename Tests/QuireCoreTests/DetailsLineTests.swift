import QuireCore
import Testing

@Suite struct DetailsLineTests {
    @Test func valuesRoundTripThroughTheLine() throws {
        let values = DetailsLine.Values(tags: ["reading list", "home"], due: Day("2026-12-01"), priority: .medium)
        let text = DetailsLine.text(values)
        #expect(text == "#home #\"reading list\" due 2026-12-01 priority medium")
        #expect(try DetailsLine.parse(text, kind: .task) == values)
        #expect(DetailsLine.text(DetailsLine.Values()) == "")
        #expect(try DetailsLine.parse("  ", kind: .note) == DetailsLine.Values())
    }

    /// A note's notebook and a task's project are one field, written `project home.garden`.
    @Test func aProjectIsReadForNotesAndTasks() throws {
        let values = DetailsLine.Values(tags: ["home"], project: "home.front garden", due: Day("2026-12-01"))
        let text = DetailsLine.text(values)
        #expect(text == "#home project \"home.front garden\" due 2026-12-01")
        #expect(try DetailsLine.parse(text, kind: .task) == values)
        #expect(
            try DetailsLine.parse("project:Work.Q4 #x", kind: .note)
                == DetailsLine.Values(tags: ["x"], project: "Work.Q4"))
        #expect(try DetailsLine.parse("project none", kind: .note).project == nil)
    }

    /// A task's rule and dates: `recur weekly wait 2026-11-29 scheduled 2026-11-27`, in words
    /// too; a rule needs a due date, and a note has none of them.
    @Test func recurrenceWaitAndScheduledAreReadForTasks() throws {
        let today = Day("2026-11-26")!
        let values = DetailsLine.Values(
            due: Day("2026-11-30"), recur: Recurrence("weekly"), wait: Day("2026-11-29"), scheduled: Day("2026-11-27"))
        let text = DetailsLine.text(values)
        #expect(text == "due 2026-11-30 recur weekly wait 2026-11-29 scheduled 2026-11-27")
        #expect(try DetailsLine.parse(text, kind: .task) == values)
        let words = try DetailsLine.parse("due:mon recur:weekly wait:+3d scheduled:fri", kind: .task, today: today)
        #expect(words == values)
        #expect(try DetailsLine.parse("due mon recur none wait none", kind: .task, today: today).recur == nil)
        #expect(throws: DetailsLine.Problem.self) { try DetailsLine.parse("recur weekly", kind: .task, today: today) }
        #expect(throws: DetailsLine.Problem.self) { try DetailsLine.parse("due mon recur often", kind: .task) }
        #expect(throws: DetailsLine.Problem.self) { try DetailsLine.parse("wait tomorrow", kind: .note, today: today) }
    }

    @Test func colonFormsAndNoneWork() throws {
        let values = try DetailsLine.parse("due:2026-01-02 priority:HIGH #b #a #a", kind: .task)
        #expect(values == DetailsLine.Values(tags: ["a", "b"], due: Day("2026-01-02"), priority: .high))
        #expect(try DetailsLine.parse("due none priority none", kind: .task) == DetailsLine.Values())
        // Taskwarrior's short names, and the `med` lists show.
        for (typed, priority) in [("h", Priority.high), ("M", .medium), ("med", .medium), ("l", .low)] {
            #expect(try DetailsLine.parse("priority \(typed)", kind: .task).priority == priority)
        }
    }

    @Test(arguments: [
        (
            "milk", ItemKind.task,
            "“milk” is not a detail: write tags as #tag, a project as project home.garden, a due date as due YYYY-MM-DD, a priority as priority high"
        ),
        ("milk", .note, "“milk” is not a detail: write tags as #tag, a project as project home.garden"),
        ("project", .note, "project needs a name such as home.garden, or none"),
        (
            "project home..garden", .task,
            "invalid project 'home..garden': use names joined by dots, such as home.garden (at most 256 bytes)"
        ),
        ("due 2026-02-30", .task, "no such day: 2026-02-30"),
        ("due 30/02/2026", .task, "invalid date '30/02/2026': use YYYY-MM-DD"),
        ("priority urgent", .task, "invalid priority 'urgent': use none, low, medium or high"),
        ("#reading list", .note, "“list” is not a detail: write a tag with spaces as #\"reading list\""),
        ("\"reading list\"", .task, "“reading list” is not a detail: write a tag with spaces as #\"reading list\""),
        ("priority high", .note, "only tasks have a priority"),
        ("due", .task, "due needs a date: YYYY-MM-DD, a word such as tomorrow or fri, +3d, or none"),
        ("#", .task, "a # with no tag after it"),
        ("#\"open", .task, "a quote is not closed"),
    ])
    func whatCannotBeReadSaysWhy(text: String, kind: ItemKind, why: String) {
        #expect(throws: DetailsLine.Problem(description: why)) { try DetailsLine.parse(text, kind: kind) }
    }

    @Test func aDueDateInWordsCountsFromTheDayGiven() throws {
        let today = Day("2026-11-26")!
        #expect(try DetailsLine.parse("due tomorrow", kind: .task, today: today).due == Day("2026-11-27"))
        #expect(try DetailsLine.parse("due:fri #home", kind: .task, today: today).due == Day("2026-11-27"))
        #expect(try DetailsLine.parse("due +2w", kind: .task, today: today).due == Day("2026-12-10"))
        #expect(throws: DetailsLine.Problem(description: "invalid date 'tomorrow': use YYYY-MM-DD")) {
            try DetailsLine.parse("due tomorrow", kind: .task)
        }
    }
}
