import ArgumentParser
import QuireCore
import QuireStore

/// `quire tags`: every tag with how many items carry it.
struct TagsCommand: StoreCommand {
    static let configuration = CommandConfiguration(
        commandName: "tags",
        abstract: "List the tags with how many items carry each.",
        discussion: """
            Tags that differ only in case are one tag, as filters match them; deleted items are \
            not counted. List one tag's items with a filter:
              quire list +home
            """)

    @Flag(help: "Print one JSON array of {\"name\", \"count\"} objects, sorted by name.")
    var json = false

    func run(store: AppDatabase, out: inout Output) throws {
        try CountedNames.write(
            try store.tagCounts(), json: json, whenEmpty: "No tags. Give an item one with: quire edit ID --tag home",
            shown: DetailsLine.tagWord, to: &out)
    }
}
