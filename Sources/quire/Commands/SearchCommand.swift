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
            The query is a filter, as quire list takes: terms such as \
            +home, status:open or due.before:eow narrow the matches, and or and parentheses \
            group. A query with no free words outside an or lists its matches in list order.
              quire search milk +errands status:open
            """)

    // Every argument that is not one of the flags below, so that `-home` reads as a term.
    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("Words and filter terms to look for.", valueName: "query"))
    var words: [String] = []

    @Option(parsing: .unconditional, help: ArgumentHelp("Show at most this many matches.", valueName: "n"))
    var limit: Int?

    @Flag(help: "Print one JSON array of the matching items.")
    var json = false

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more") }
        try FieldInput.refuseFlags(among: words)
        if words.allSatisfy({ $0.trimmingWhitespace().isEmpty }) {
            throw ValidationError("the query has no words to search for")
        }
    }

    func run(store: AppDatabase, out: inout Output) throws {
        let query = try FieldInput.filter(words)
        if query.isEmpty { throw CLIFailure.badInput("the query has no words to search for") }
        // The free words every match holds rank the matches; the rest of the query narrows them.
        let text = query.rankingWords.joined(separator: " ")
        let items: [Item]
        var shortIDs: [String: String]?
        if text.isEmpty {
            items = try store.items(matching: ItemFilter(expression: query), limit: limit)
        } else if json {
            items = try store.search(text, matching: ItemFilter(expression: query.withoutRankingWords), limit: limit)
        } else {
            (items, shortIDs) = try store.searchWithShortIDs(
                text, matching: ItemFilter(expression: query.withoutRankingWords), limit: limit)
        }
        try ItemsOutput.write(
            items, json: json, whenEmpty: "No matches.", shortIDs: shortIDs, store: store, to: &out)
    }
}
