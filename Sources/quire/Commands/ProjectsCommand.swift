import ArgumentParser
import QuireCore
import QuireStore

/// `quire projects`: every project (a task's project, a note's notebook) with its items.
struct ProjectsCommand: StoreCommand {
    static let configuration = CommandConfiguration(
        commandName: "projects",
        abstract: "List the projects with how many items each holds.",
        discussion: """
            A project's count includes its sub-projects' (home counts home.garden's); deleted \
            items are not counted. List one project's items with a filter:
              quire list project:home
            """)

    @Flag(help: "Print one JSON array of {\"name\", \"count\"} objects, sorted by name.")
    var json = false

    func run(store: AppDatabase, out: inout Output) throws {
        // Indented by depth, each line its last part, as a tree reads (`home`, `  garden`).
        try CountedNames.write(
            try store.projectCounts(), json: json,
            whenEmpty: "No projects. Give an item one with: quire edit ID --project home.garden",
            shown: { name in
                let parts = name.split(separator: ".", omittingEmptySubsequences: false)
                return String(repeating: "  ", count: parts.count - 1) + (parts.last.map(String.init) ?? "")
            }, to: &out)
    }
}
