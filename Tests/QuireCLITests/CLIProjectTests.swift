import Foundation
import Testing

/// Projects on the built binary (SPEC: Items, Filters): `--project` on add and edit, the
/// `project:` term with its sub-projects, `quire projects` with counts, and bad names refused
/// with one line that changes nothing.
@Suite struct CLIProjectTests {
    func ids(_ cli: QuireCLI, _ arguments: String...) throws -> [String] { try cli.listedIDs(arguments) }

    @Test func aProjectHoldsItsSubProjectsWithoutRegardToCase() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let fence = try cli.add("Mend the fence", "--task", "--project", "home.garden")
        let rent = try cli.add("Pay rent", "--task", "--project", "Home")
        let essay = try cli.add("Essay", "--project", "homework")
        let plain = try cli.add("Buy milk", "--task")
        #expect(try ids(cli, "project:home") == [rent, fence])
        #expect(try ids(cli, "project:HOME.Garden") == [fence])
        #expect(try ids(cli, "project:homework") == [essay])
        #expect(try ids(cli, "project:none") == [plain])
        #expect(try ids(cli, "project:home", "or", "project:homework") == [essay, rent, fence])

        // The list line: the project leads the last column, before the tags.
        let listed = try cli.run("list", "project:home.garden").stdout
        #expect(
            listed.contains("Mend the fence  home.garden") || listed.contains("Mend the fence home.garden"), "\(listed)"
        )
        let shown = try cli.json(["show", fence, "--json"]) as? [String: Any]
        #expect(shown?["project"] as? String == "home.garden")
        #expect(try cli.run("show", fence).stdout.contains("project"))

        // A new project, then none: each an ordinary edit.
        #expect(try cli.run("edit", plain, "--project", "errands").status == 0)
        #expect(try ids(cli, "project:errands") == [plain])
        #expect(try cli.run("edit", plain, "--project", "none").status == 0)
        #expect(try ids(cli, "project:none") == [plain])
    }

    @Test func projectsListsEachWithItsCountSubProjectsIncluded() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let none = try cli.run("projects")
        #expect(none.status == 0 && none.stdout.hasPrefix("No projects."))
        _ = try cli.add("Mend the fence", "--task", "--project", "home.garden")
        _ = try cli.add("Pay rent", "--task", "--project", "home")
        _ = try cli.add("Call the plumber", "--task", "--project", "Home")
        _ = try cli.add("Quarterly report", "--project", "work.q4")
        let gone = try cli.add("Old plan", "--project", "attic")
        #expect(try cli.run("rm", gone).status == 0)

        let rows = try cli.json(["projects", "--json"]) as? [[String: Any]] ?? []
        let counts = rows.map { "\($0["name"] as? String ?? "?")=\($0["count"] as? Int ?? -1)" }
        #expect(counts.map { $0.lowercased() } == ["home=3", "home.garden=1", "work=1", "work.q4=1"], "\(rows)")

        let text = try cli.run("projects")
        #expect(text.status == 0)
        let lines = text.stdout.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
        #expect(lines.map { $0.lowercased() } == ["home 3", "garden 1", "work 1", "q4 1"], "\(text.stdout)")
        #expect(text.stdout.contains("\n  garden"), "sub-projects are indented under their parent: \(text.stdout)")
    }

    /// `quire tags`, the same shape: a tag in two cases is one tag, as filters match it.
    @Test func tagsListsEachTagWithItsCount() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        #expect(try cli.run("tags").stdout.hasPrefix("No tags."))
        _ = try cli.add("Buy milk", "--tag", "home", "--tag", "errands")
        _ = try cli.add("Mend the fence", "--tag", "Home")
        _ = try cli.add("Reading", "--tag", "reading list")
        let rows = try cli.json(["tags", "--json"]) as? [[String: Any]] ?? []
        let counts = rows.map { "\(($0["name"] as? String ?? "?").lowercased())=\($0["count"] as? Int ?? -1)" }
        #expect(counts == ["errands=1", "home=2", "reading list=1"], "\(rows)")
        let text = try cli.run("tags").stdout
        #expect(text.contains("#\"reading list\"  1"), "a tag with a space is written as it is typed: \(text)")
    }

    @Test(arguments: [["add", "X", "--project", "home..garden"], ["add", "X", "--project", ".home"]])
    func aBadProjectIsOneLineAndChangesNothing(_ arguments: [String]) throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        _ = try cli.add("Keep me", "--project", "home")
        let before = try cli.snapshot()
        let result = try cli.run(arguments)
        #expect(result.status == 1, "\(arguments): \(result.stderr)")
        #expect(result.oneErrorLine && result.stderr.contains("invalid project"), "\(result.stderr)")
        #expect(try cli.snapshot() == before)
    }

    /// `quire edit` with no field flags hands the item to the editor as Markdown: the project
    /// is one of its lines, so an edit of the body keeps it, and changing the line changes it.
    @Test func theEditorFileCarriesTheProject() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let id = try cli.add("Mend the fence", "--task", "--project", "home.garden")
        // The "editor" appends to the body and keeps every header line.
        let keep = try cli.run(["edit", id], environment: ["EDITOR": "sh -c 'printf \"more\\n\" >> \"$0\"'"])
        #expect(keep.status == 0, "\(keep.stderr)")
        #expect((try cli.json(["show", id, "--json"]) as? [String: Any])?["project"] as? String == "home.garden")
        let move = try cli.run(
            ["edit", id], environment: ["EDITOR": "sed -i s/^project:.*/project:\\ work/"])
        #expect(move.status == 0, "\(move.stderr)")
        #expect((try cli.json(["show", id, "--json"]) as? [String: Any])?["project"] as? String == "work")
    }
}

/// `quire add` with no title, or with `--edit`, opens the editor as `nb add` does: the first
/// line is the title, the rest the body; an empty file adds nothing.
@Suite struct CLICaptureTests {
    @Test func addWithNoTitleWritesTheItemInTheEditor() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let editor = #"sh -c 'printf "\n# Trip plan\n\nPack light.\nSocks.\n" > "$0"'"#
        let added = try cli.run(["add", "--task"], environment: ["EDITOR": editor])
        #expect(added.status == 0, "\(added.stderr)")
        let items = try cli.allItems()
        #expect(items.count == 1)
        #expect(items.first?["title"] as? String == "Trip plan")
        #expect(items.first?["body"] as? String == "Pack light.\nSocks.\n")
        #expect(items.first?["kind"] as? String == "task")
    }

    @Test func editStartsFromTheTitleGivenAndAnEmptyFileAddsNothing() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        // The editor keeps what it was given and adds a body line.
        let added = try cli.run(
            ["add", "Call", "mom", "--edit"], environment: ["EDITOR": #"sh -c 'printf "about the trip\n" >> "$0"'"#])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(try cli.allItems().first?["title"] as? String == "Call mom")
        #expect(try cli.allItems().first?["body"] as? String == "about the trip\n")

        let before = try cli.snapshot()
        let empty = try cli.run(["add"], environment: ["EDITOR": #"sh -c ': > "$0"'"#])
        #expect(empty.status == 0 && empty.stdout.contains("nothing added"), "\(empty.stdout)\(empty.stderr)")
        #expect(try cli.snapshot() == before)
    }

    /// In a pipe with no editor set, no title is a clear error, never `vi` with no terminal.
    @Test func noTitleInAPipeWithNoEditorSetIsRefused() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let refused = try cli.run(["add"], stdin: "")
        #expect(refused.status == 1 && refused.oneErrorLine && refused.stderr.contains("title"), "\(refused.stderr)")
        #expect(try cli.allItems().isEmpty)
    }

    /// A title the store refuses keeps the text: the error says where it is.
    @Test func aRefusedTitleKeepsWhatWasWritten() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let long = String(repeating: "x", count: 5000)
        let refused = try cli.run(["add"], environment: ["EDITOR": "sh -c 'printf \"\(long)\\nbody\\n\" > \"$0\"'"])
        #expect(refused.status == 1 && refused.oneErrorLine, "\(refused.stderr)")
        let path = try #require(
            refused.stderr.split(separator: " ").last.map { String($0).trimmingCharacters(in: .whitespacesAndNewlines) }
        )
        #expect(refused.stderr.contains("your text is kept at"))
        #expect(
            FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }?.hasSuffix("body\n")
                == true)
        try? FileManager.default.removeItem(atPath: path)
    }
}
