import Foundation
import Testing

/// Every local command end to end, through the built binary.
@Suite struct CLICommandTests {
    @Test func addListAndShow() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let note = try cli.add("Meeting", "notes", "--tag", "work", "--body", "Agenda:\n- one")
        let task = try cli.add(
            "Buy milk", "--task", "--tag", "home", "--tag", "errands", "--due", "2026-11-30", "--priority", "high",
            "--pin")
        #expect(note.count == 36 && task.count == 36 && task > note)

        let items = try #require(try cli.json("list", "--json") as? [[String: Any]])
        #expect(items.map { $0["title"] as? String } == ["Buy milk", "Meeting notes"], "pinned first")
        let milk = items[0]
        #expect(milk["kind"] as? String == "task" && milk["due"] as? String == "2026-11-30")
        #expect(milk["priority"] as? String == "high" && milk["pinned"] as? Bool == true)
        #expect(milk["tags"] as? [String] == ["errands", "home"] && milk["syncState"] as? String == "pending")
        #expect(milk["rev"] as? Int == 0 && milk["deleted"] as? Bool == false && milk["doneAt"] is NSNull)
        #expect(
            Set(milk.keys) == [
                "id", "kind", "title", "body", "tags", "done", "doneAt", "due", "priority", "pinned", "project",
                "recur", "wait", "scheduled", "attachments", "createdAt", "updatedAt", "deleted", "rev", "syncState",
            ])

        let human = try cli.run("list")
        #expect(human.status == 0)
        let lines = human.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(
            lines[0].contains("● ↑ [ ] Buy milk") && lines[0].contains("2026-11-30") && lines[0].contains("high")
                && lines[0].hasSuffix("#errands #home"))
        #expect(lines[1].contains("Meeting notes") && lines[1].hasSuffix("#work"))

        let shown = try #require(try cli.json("show", String(note.prefix(13)), "--json") as? [String: Any])
        #expect(shown["id"] as? String == note && shown["body"] as? String == "Agenda:\n- one")
        let text = try cli.run("show", note)
        #expect(text.stdout.hasPrefix("Meeting notes\n") && text.stdout.hasSuffix("Agenda:\n- one\n"))
        #expect(text.stdout.contains("tags      #work"))
    }

    /// Columns line up by what a terminal shows, not by bytes or characters: wide characters
    /// take two columns, and plain ASCII titles (counted a byte a column) agree with them.
    @Test(arguments: ["list", "search"])
    func listingColumnsAlignAcrossWideAndASCIITitles(_ command: String) throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        for title in ["Plan trip", "日本語のメモ plan", "Café ☕ plan", "Plan"] {
            _ = try cli.add(title, "--tag", "t")
        }
        let listing = try cli.run(command == "list" ? ["list"] : ["search", "plan"])
        #expect(listing.status == 0)
        func columns(_ text: Substring) -> Int {
            text.unicodeScalars.reduce(0) { total, scalar in
                total + ((0x3040...0x9FFF).contains(scalar.value) || scalar.value == 0x2615 ? 2 : 1)
            }
        }
        let lines = listing.stdout.split(separator: "\n")
        #expect(lines.count == 4)
        let tagColumns = lines.map { line in line.range(of: " #t").map { columns(line[..<$0.lowerBound]) } }
        #expect(tagColumns.allSatisfy { $0 != nil && $0 == tagColumns[0] }, "\(listing.stdout)")
    }

    @Test func listFiltersAndDefaults() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let open = try cli.add("open task", "--task", "--tag", "x")
        let closed = try cli.add("closed task", "--task")
        let note = try cli.add("a note", "--tag", "x")
        let gone = try cli.add("gone note")
        #expect(try cli.run("done", closed).status == 0)
        #expect(try cli.run("rm", gone).status == 0)
        func titles(_ arguments: String...) throws -> [String] {
            let list = try cli.json(["list", "--json"] + arguments) as? [[String: Any]] ?? []
            return list.compactMap { $0["title"] as? String }
        }
        #expect(try titles() == ["a note", "closed task", "open task"], "default: every live item, as in the app")
        #expect(try titles("--open") == ["open task"], "a note has no checkbox")
        #expect(try titles("--done") == ["closed task"])
        #expect(try titles("--tasks") == ["closed task", "open task"])
        #expect(try titles("--tasks", "--done") == ["closed task"])
        #expect(try titles("--notes") == ["a note"])
        #expect(try titles("--tag", "x") == ["a note", "open task"])
        #expect(try titles("--all") == ["gone note", "a note", "closed task", "open task"])
        #expect(try titles("--needs-review").isEmpty)
        #expect(try titles("--limit", "1") == ["a note"])
        #expect(try titles("--all", "--open") == ["open task"])
        _ = (open, note)
        let human = try cli.run("list", "--all")
        #expect(human.stdout.contains("gone note (deleted)"))
        #expect(human.stdout.contains("[x] closed task"))
    }

    @Test func editWithFlagsAndStdin() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let id = try cli.add("Draft", "--task", "--tag", "old", "--tag", "keep", "--due", "2026-01-01")
        let result = try cli.run(
            "edit", String(id.prefix(13)), "--title", "Final", "--tag", "+new", "--tag", "-old",
            "--due", "none", "--priority", "medium", "--body", "-", "--pin", stdin: "from stdin\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("edited: "))
        let item = try #require(try cli.json("show", id, "--json") as? [String: Any])
        #expect(item["title"] as? String == "Final" && item["tags"] as? [String] == ["keep", "new"])
        #expect(item["due"] is NSNull && item["priority"] as? String == "medium")
        #expect(item["body"] as? String == "from stdin\n" && item["pinned"] as? Bool == true)
        let same = try cli.run("edit", id, "--title", "Final")
        #expect(same.status == 0 && same.stdout.hasPrefix("no changes: "))
    }

    @Test func editInTheEditor() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let id = try cli.add("Old title", "--task", "--body", "old body")
        let script = cli.home + "/editor.sh"
        try """
        #!/bin/sh
        sed -i -e 's/^title: .*/title: New title/' -e 's/^priority: .*/priority: high/' -e 's/^old body$/new body/' "$1"
        """.write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        let edited = try cli.run(["edit", id], environment: ["VISUAL": script])
        #expect(edited.status == 0, "\(edited.stderr)")
        let item = try #require(try cli.json("show", id, "--json") as? [String: Any])
        #expect(item["title"] as? String == "New title" && item["priority"] as? String == "high")
        #expect(item["body"] as? String == "new body" && item["kind"] as? String == "task")

        let untouched = try cli.run(["edit", id], environment: ["EDITOR": "true"])
        #expect(untouched.status == 0 && untouched.stdout.hasPrefix("no changes"))

        let before = try cli.snapshot()
        let breaker = cli.home + "/break.sh"
        try "#!/bin/sh\nsed -i 's/^priority: .*/priority: urgent/' \"$1\"\n".write(
            toFile: breaker, atomically: true, encoding: .utf8)
        chmod(breaker, 0o755)
        let broken = try cli.run(["edit", id], environment: ["EDITOR": breaker])
        #expect(broken.status == 1 && broken.oneErrorLine)
        #expect(broken.stderr.contains("invalid priority 'urgent'") && broken.stderr.contains("your text is kept at "))
        let kept = String(broken.stderr.split(separator: " ").last ?? "").trimmingCharacters(
            in: .whitespacesAndNewlines)
        #expect(
            FileManager.default.contents(atPath: kept).map { String(decoding: $0, as: UTF8.self) }?.contains(
                "priority: urgent") == true)
        try? FileManager.default.removeItem(atPath: kept)
        #expect(try cli.snapshot() == before)
    }

    @Test func doneReopenRemoveRestore() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let a = try cli.add("first", "--task")
        let b = try cli.add("second", "--task")
        let done = try cli.run("done", a, b)
        #expect(done.status == 0 && done.stdout.split(separator: "\n").count == 2 && done.stdout.hasPrefix("done: "))
        #expect(try cli.run("done", a).stdout.hasPrefix("already done: "))
        let items = try cli.allItems()
        #expect(items.allSatisfy { $0["done"] as? Bool == true && $0["doneAt"] is String })
        let reopened = try cli.run("reopen", b)
        #expect(reopened.stdout.hasPrefix("reopened: "))
        let removed = try cli.run("rm", a)
        #expect(removed.status == 0 && removed.stdout.hasPrefix("deleted: "))
        #expect(try cli.json("list", "--json", "--done") as? [Any] != nil)
        #expect((try cli.json("list", "--json") as? [[String: Any]])?.map { $0["id"] as? String } == [b])
        let restored = try cli.run("restore", a)
        #expect(restored.stdout.hasPrefix("restored: "))
        #expect(try cli.allItems().allSatisfy { $0["deleted"] as? Bool == false })
        #expect(try cli.run("restore", a).stdout.hasPrefix("not deleted: "))
    }

    @Test func searchFindsRankedPrefixes() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let title = try cli.add("Buy oat milk")
        let body = try cli.add("Shopping list", "--body", "milk and bread")
        _ = try cli.add("Unrelated")
        let found = try #require(try cli.json("search", "mil", "--json") as? [[String: Any]])
        #expect(found.compactMap { $0["id"] as? String } == [title, body])
        #expect((try cli.json("search", "oat", "mil", "--json") as? [[String: Any]])?.count == 1)
        let human = try cli.run("search", "bread")
        #expect(human.status == 0 && human.stdout.contains("Shopping list") && !human.stdout.contains("Buy oat milk"))
        #expect(try cli.run("search", "nothinglikethis").stdout.isEmpty)
    }

    @Test func historyNewestFirst() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let id = try cli.add("v1", "--task")
        try cli.run("edit", id, "--title", "v2", "--tag", "+t")
        try cli.run("done", id)
        let versions = try #require(try cli.json("history", id, "--json") as? [[String: Any]])
        #expect(versions.count == 3)
        let titles = versions.compactMap { ($0["item"] as? [String: Any])?["title"] as? String }
        #expect(titles == ["v2", "v2", "v1"])
        #expect(versions.allSatisfy { $0["origin"] as? String == "local" && $0["recordedAt"] is String })
        let human = try cli.run("history", id)
        let lines = human.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(
            lines[0].hasSuffix("done") && lines[1].contains("title \"v1\" → \"v2\"; tags +t")
                && lines[2].contains("created task \"v1\""))
    }
}
