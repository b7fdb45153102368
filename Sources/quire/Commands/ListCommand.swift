import ArgumentParser
import QuireCore
import QuireStore

struct ListCommand: StoreCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List items, pinned first, then newest first.",
        discussion: """
            By default: every note and task, done tasks included, as the app's list shows \
            them, but for tasks waiting until a later date (--wait): status:waiting lists those. \
            --open shows only open tasks, --done only done ones, --all deleted items too.
            A filter narrows the list (quire search and the app's / take the same words):
              milk               a word in the title, body or tags starts with milk
              +home  -home       with or without the tag (#home too), in any case
              kind:task          note or task
              status:open        open, done or waiting (hidden until their wait date)
              priority:high      none, low, medium or high (l, m, h)
              project:home       home and the projects under it (home.garden), or none
              due:today          also due.before:, due.after: and due:none
              wait:fri           the same for wait and scheduled
              created:today      also .before: and .after:, and the same for updated
              has:link           the body holds a [[link]]
              has:attachment     files are attached (quire attachments ID)
              links:3fa9         the body links to that item (quire backlinks 3fa9)
            Dates: 2026-12-24, today, tomorrow, yesterday, mon…sun, eow, eom, eoy (the end \
            of that day), +3d, +2w, +1m, +1y.
            Terms side by side must all hold; or joins alternatives and binds looser, so \
            '+a +b or +c' is '(+a +b) or +c'; parentheses group. Quote a word that holds \
            spaces or a colon. Flags and filters combine:
              quire list --tasks +errands due.before:eow
              quire list '(+home or +garden)' priority:high
            Each line: short id, sync badge (● pending, ↻ syncing, ! needs review, ✗ error), \
            ↑ when pinned, [ ]/[x] for tasks, title, due date, priority, project and tags.
            """)

    enum KindChoice: String, EnumerableFlag, ArgumentChoice {
        case notes, tasks
        static func help(for value: KindChoice) -> ArgumentHelp? {
            value == .notes ? "Only notes." : "Only tasks."
        }
    }

    enum StatusChoice: String, EnumerableFlag, ArgumentChoice {
        case open, done
        static func help(for value: StatusChoice) -> ArgumentHelp? {
            value == .open ? "Only open tasks." : "Only done tasks."
        }
    }

    // Every argument that is not one of the flags below, so that `-home` reads as a term.
    @Argument(
        parsing: .allUnrecognized,
        help: ArgumentHelp("Filter terms (see above), e.g. +home due.before:eow.", valueName: "filter"))
    var terms: [String] = []

    @Flag(exclusivity: .exclusive) var kind: KindChoice?
    @Flag(exclusivity: .exclusive) var status: StatusChoice?

    @Option(help: ArgumentHelp("Only items with this tag (#work, work and Work are the same).", valueName: "tag"))
    var tag: String?

    @Flag(help: "Only items that need review after a sync conflict.")
    var needsReview = false

    @Flag(help: "Deleted items and waiting tasks too.")
    var all = false

    enum SortChoice: String, ExpressibleByArgument, ArgumentChoice {
        case due, priority, urgency, created, updated
    }

    @Option(
        help: ArgumentHelp(
            "Order by due (soonest first), priority, urgency (as quire next), created or updated (newest first).",
            valueName: "order"))
    var sort: SortChoice?

    // Unconditional, so that `--limit -1` reaches `validate()` instead of reading as an option.
    @Option(parsing: .unconditional, help: ArgumentHelp("Show at most this many items.", valueName: "n"))
    var limit: Int?

    @Flag(help: "Print one JSON array of items.")
    var json = false

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more") }
        try FieldInput.refuseFlags(among: terms)
    }

    func filter() throws(CLIFailure) -> ItemFilter {
        let status: StatusFilter =
            switch self.status {
            case .open: .open
            case .done: .done
            case nil: .any
            }
        var filter = ItemFilter.defaultList(
            kind: kind.map { $0 == .notes ? .note : .task }, status: status, tag: tag.map(Tags.typed),
            needsReview: needsReview, includeDeleted: all, expression: try FieldInput.filter(terms),
            today: LocalTime.filterCalendar().today)
        if all { filter.hidesWaitingAfter = nil }
        return filter
    }

    /// The items in the asked-for order, or nil for the list's own (which streams in --json).
    func sorted(_ filter: ItemFilter, in store: AppDatabase) throws -> [Item]? {
        guard let sort else { return nil }
        guard let order = ItemOrder(rawValue: sort.rawValue) else {
            // Urgency is quire next's order, over every match.
            return try store.mostUrgent(
                matching: filter, limit: limit ?? store.count(matching: filter), today: LocalTime.filterCalendar().today
            )
        }
        var ordered = filter
        ordered.order = order
        return try store.items(matching: ordered, limit: limit)
    }

    func run(store: AppDatabase, out: inout Output) throws {
        let filter = try self.filter()
        if let items = try sorted(filter, in: store) {
            try ItemsOutput.write(items, json: json, whenEmpty: "No items.", store: store, to: &out)
            return
        }
        if json {
            try JSONOutput.items(&out) { emit in
                if let limit {
                    for item in try store.items(matching: filter, limit: limit) { emit(item) }
                } else {
                    try store.forEachItem(matching: filter) { emit($0) }
                }
            }
            return
        }
        let items = try store.items(matching: filter, limit: limit)
        if items.isEmpty {
            // Silence in a pipe; a word for a person at a terminal.
            if Terminal.isOutputTerminal { out.line("No items.") }
            return
        }
        ItemListing(terminal: Terminal()).write(items, shortIDs: try store.shortIDs(for: items), to: &out)
    }
}
