import ArgumentParser
import QuireCore
import QuireStore

struct SearchCommand: StoreCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Full-text search over titles, bodies and tags; best matches first.",
        discussion: """
            Every word must match the start of a word in the item, so 'quire search mil buy' \
            finds "Buy milk". Case and accents do not matter. Deleted items are not searched.
            Best first: items whose title holds every word, then those whose title and tags \
            hold them between them, then the rest; the most recently added first within each.
            """)

    @Argument(help: ArgumentHelp("Words to look for.", valueName: "query"))
    var words: [String]

    @Option(parsing: .unconditional, help: ArgumentHelp("Show at most this many matches.", valueName: "n"))
    var limit: Int?

    @Flag(help: "Print one JSON array of the matching items.")
    var json = false

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more") }
        if SearchQuery.match(words.joined(separator: " ")) == nil {
            throw ValidationError("the query has no words to search for")
        }
    }

    func run(store: AppDatabase, out: inout Output) throws {
        let query = words.joined(separator: " ")
        if json {
            let items = try store.search(query, limit: limit)
            JSONOutput.items(&out) { emit in items.forEach(emit) }
            return
        }
        let (items, shortIDs) = try store.searchWithShortIDs(query, limit: limit)
        if items.isEmpty {
            if Terminal.isOutputTerminal { out.line("No matches.") }
            return
        }
        ItemListing(terminal: Terminal()).write(items, shortIDs: shortIDs, to: &out)
    }
}
