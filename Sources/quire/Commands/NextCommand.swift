import ArgumentParser
import QuireCore
import QuireStore

/// `quire next`: the open tasks to do first, as Taskwarrior's `task next`.
struct NextCommand: StoreCommand {
    static let configuration = CommandConfiguration(
        commandName: "next",
        abstract: "Open tasks by urgency: what to do next.",
        discussion: """
            Urgency adds three parts. Due: 12 when overdue, 10 when due today, then less each \
            day to 0 at two weeks away. Priority: high 6, medium 3.9, low 1.8. Age: up to 2, \
            growing over the task's first year. Ties go to the earlier due date, then the older \
            task. Tasks waiting until a later date (--wait) are left out. A filter narrows the \
            tasks, as quire list takes it:
              quire next +work
            """)

    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("Filter terms, as quire list takes.", valueName: "filter"))
    var terms: [String] = []

    @Option(parsing: .unconditional, help: ArgumentHelp("Show at most this many tasks.", valueName: "n"))
    var limit = 10

    @Flag(help: "Print one JSON array of the tasks, most urgent first.")
    var json = false

    func validate() throws {
        if limit < 0 { throw ValidationError("--limit must be 0 or more") }
        try FieldInput.refuseFlags(among: terms)
    }

    func run(store: AppDatabase, out: inout Output) throws {
        let today = LocalTime.filterCalendar().today
        let filter = ItemFilter.defaultList(status: .open, expression: try FieldInput.filter(terms), today: today)
        let tasks = try store.mostUrgent(matching: filter, limit: limit, today: today)
        try ItemsOutput.write(tasks, json: json, whenEmpty: "No open tasks.", store: store, to: &out)
    }
}
