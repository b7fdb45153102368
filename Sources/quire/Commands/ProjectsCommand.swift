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
        let projects = try store.projectCounts()
        if json {
            try JSONOutput.encode(&out, projects.map { ProjectCount(name: $0.name, count: $0.count) })
            return
        }
        guard !projects.isEmpty else {
            out.line("No projects. Give an item one with: quire edit ID --project home.garden")
            return
        }
        // Indented by depth, each line its last part, as a tree reads (`home`, `  garden`).
        let rows = projects.map { project -> (String, Int) in
            let parts = project.name.split(separator: ".", omittingEmptySubsequences: false)
            return (
                String(repeating: "  ", count: parts.count - 1) + (parts.last.map(String.init) ?? ""), project.count
            )
        }
        let width = rows.map { Terminal.width($0.0) }.max() ?? 0
        for (name, count) in rows {
            out.line(name + String(repeating: " ", count: width - Terminal.width(name) + 2) + String(count))
        }
    }
}

/// One row of `quire projects --json`.
private struct ProjectCount: Encodable {
    var name: String
    var count: Int
}
