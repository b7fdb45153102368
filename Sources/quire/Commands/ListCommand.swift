import ArgumentParser
import QuireCore
import QuireStore

struct ListCommand: StoreCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List items, pinned first, then newest first.",
        discussion: """
            By default: notes and open tasks. --done shows done tasks, --all shows everything, \
            done tasks and deleted items included. Filters combine:
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
            value == .open ? "Only notes and open tasks (the default)." : "Only done tasks."
        }
    }

    @Flag(exclusivity: .exclusive) var kind: KindChoice?
    @Flag(exclusivity: .exclusive) var status: StatusChoice?

    @Option(help: ArgumentHelp("Only items with this tag.", valueName: "tag"))
    var tag: String?

    @Flag(help: "Only items that need review after a sync conflict.")
    var needsReview = false

    @Flag(help: "Everything: done tasks and deleted items too (with --open or --done, deleted items of that status).")
    var all = false

    @Option(help: ArgumentHelp("Show at most this many items.", valueName: "n"))
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
            case nil: all ? .any : .open
            }
        return ItemFilter(
            kind: kind.map { $0 == .notes ? .note : .task }, status: status, tag: tag, needsReview: needsReview,
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
            if Terminal.columns() != nil { out.line("No items.") }
            return
        }
        ItemListing(terminal: Terminal()).write(items, shortIDs: try store.shortIDs(for: items), to: &out)
    }
}
