import ArgumentParser
import QuireCore
import QuireStore

/// `quire agenda`: open tasks by due date, from the overdue ones to `--days` ahead.
struct AgendaCommand: StoreCommand {
    static let configuration = CommandConfiguration(
        commandName: "agenda",
        abstract: "Open tasks by due date: overdue, today and the days ahead.",
        discussion: """
            Each day with tasks due gets a heading (Overdue, Today, Tomorrow, then the weekday \
            and date); within a day, higher priority first. A filter narrows the tasks, as \
            quire list takes it:
              quire agenda --days 14 +work
            """)

    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("Filter terms, as quire list takes.", valueName: "filter"))
    var terms: [String] = []

    @Option(parsing: .unconditional, help: ArgumentHelp("How many days ahead of today (default 7).", valueName: "n"))
    var days = 7

    @Flag(help: "Print one JSON array of the tasks, by due date.")
    var json = false

    func validate() throws {
        if days < 0 || days > 3660 { throw ValidationError("--days must be from 0 to 3660") }
        try FieldInput.refuseFlags(among: terms)
    }

    func run(store: AppDatabase, out: inout Output) throws {
        let today = LocalTime.filterCalendar().today
        let last = today.adding(days: days) ?? today
        let due = Filter.term(.due(Filter.DayRange(first: nil, last: last)))
        let typed = try FieldInput.filter(terms)
        let filter = ItemFilter.defaultList(
            status: .open, expression: typed.isEmpty ? due : .and([due, typed]), today: today)
        var tasks: [Item] = []
        try store.forEachItem(matching: filter) { tasks.append($0) }
        tasks.sort { a, b in
            if a.due != b.due { return (a.due ?? today) < (b.due ?? today) }
            if a.priority != b.priority { return a.priority > b.priority }
            return a.id < b.id
        }
        if json || tasks.isEmpty {
            try ItemsOutput.write(
                tasks, json: json, whenEmpty: "Nothing due in the next \(days) days.", store: store, to: &out)
            return
        }
        let shortIDs = try store.shortIDs(for: tasks)
        let listing = ItemListing(terminal: Terminal())
        var groups: [(heading: String, tasks: [Item])] = []
        for task in tasks {
            let heading = (task.due ?? today).agendaHeading(today: today)
            if groups.last?.heading == heading {
                groups[groups.count - 1].tasks.append(task)
            } else {
                groups.append((heading, [task]))
            }
        }
        for (index, group) in groups.enumerated() {
            if index > 0 { out.line("") }
            out.line(group.heading)
            listing.write(group.tasks, shortIDs: shortIDs, to: &out)
        }
    }
}
