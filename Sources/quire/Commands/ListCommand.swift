import ArgumentParser
import QuireCore
import QuireStore

struct ListCommand: StoreCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List items, pinned first, then newest first.",
        discussion: """
            By default: every note and task, done tasks included, as the app's list shows \
            them. --open shows only open tasks, --done only done ones, --all deleted items too. \
            Tags match without regard to case, with or without the #. Filters combine:
              quire list --tasks --open --tag errands
            Each line: short id, sync badge (● pending, ↻ syncing, ! needs review, ✗ error), \
            ↑ when pinned, [ ]/[x] for tasks, title, due date, priority, tags.
            """)

    enum KindChoice: String, EnumerableFlag {
        case notes, tasks
        static func help(for value: KindChoice) -> ArgumentHelp? {
            value == .notes ? "Only notes." : "Only tasks."
        }
    }

    enum StatusChoice: String, EnumerableFlag {
        case open, done
        static func help(for value: StatusChoice) -> ArgumentHelp? {
            value == .open ? "Only open tasks." : "Only done tasks."
        }
    }

    @Flag(exclusivity: .exclusive) var kind: KindChoice?
    @Flag(exclusivity: .exclusive) var status: StatusChoice?

    @Option(help: ArgumentHelp("Only items with this tag (#work, work and Work are the same).", valueName: "tag"))
    var tag: String?

    @Flag(help: "Only items that need review after a sync conflict.")
    var needsReview = false

    @Flag(help: "Deleted items too.")
    var all = false

    // Unconditional, so that `--limit -1` reaches `validate()` instead of reading as an option.
    @Option(parsing: .unconditional, help: ArgumentHelp("Show at most this many items.", valueName: "n"))
    var limit: Int?

    @Flag(help: "Print one JSON array of items.")
    var json = false

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more") }
    }

    var filter: ItemFilter {
        let status: StatusFilter =
            switch self.status {
            case .open: .open
            case .done: .done
            case nil: .any
            }
        return ItemFilter(
            kind: kind.map { $0 == .notes ? .note : .task }, status: status, tag: tag.map(Tags.typed),
            needsReview: needsReview,
            includeDeleted: all)
    }

    func run(store: AppDatabase, out: inout Output) throws {
        let filter = self.filter
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
