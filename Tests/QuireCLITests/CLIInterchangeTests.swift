import Foundation
import Testing

@Suite struct CLIInterchangeTests {
    func comparable(_ items: [[String: Any]]) -> [String] {
        items.map { item in
            ["id", "kind", "title", "body", "tags", "done", "doneAt", "due", "priority", "pinned", "createdAt"]
                .map { "\(item[$0] ?? "missing")" }.joined(separator: "|")
        }.sorted()
    }

    @Test func jsonExportImportsIntoAnotherHomeAndAgainChangesNothing() throws {
        let source = try QuireCLI()
        let target = try QuireCLI()
        defer {
            source.remove()
            target.remove()
        }
        _ = try source.add("Note with \"quotes\"", "--body", "multi\nline", "--tag", "a b")
        let task = try source.add("Task", "--task", "--due", "2026-11-30", "--priority", "low")
        try source.run("done", task)
        let file = source.home + "/export.json"
        let export = try source.run("export", "--output", file)
        #expect(export.status == 0 && export.stdout == "exported 2 items to \(file)\n")
        let stdout = try source.run("export")
        #expect(try JSONSerialization.jsonObject(with: Data(stdout.stdout.utf8)) as? [Any] != nil)

        let imported = try target.run("import", file)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("imported 2 items") && imported.stdout.contains("2 new"))
        #expect(comparable(try target.allItems()) == comparable(try source.allItems()))
        let before = try target.snapshot()
        let again = try target.run("import", file)
        #expect(again.stdout.contains("2 unchanged"))
        #expect(try target.snapshot() == before)
    }

    @Test func markdownExportImportsBack() throws {
        let source = try QuireCLI()
        let target = try QuireCLI()
        defer {
            source.remove()
            target.remove()
        }
        let plan = try source.run(
            "add", "Plan: the trip, part 1", "--body", "-", "--tag", "travel", stdin: "---\nnot a header\n")
        #expect(plan.status == 0, "\(plan.stderr)")
        _ = try source.add("Groceries", "--task", "--pin")
        let folder = source.home + "/md"
        let export = try source.run("export", "--format", "markdown", "--output", folder)
        #expect(export.status == 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(files.count == 2 && files.allSatisfy { $0.hasSuffix(".md") })
        #expect(files.contains { $0.hasPrefix("plan-the-trip-part-1-") })
        try "# Loose note\n\nwritten elsewhere".write(toFile: folder + "/loose.md", atomically: true, encoding: .utf8)
        let imported = try target.run("import", folder)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("3 new"))
        let items = try target.allItems()
        #expect(
            comparable(items.filter { $0["title"] as? String != "Loose note" }) == comparable(try source.allItems()))
        #expect(
            items.contains { $0["title"] as? String == "Loose note" && $0["body"] as? String == "written elsewhere" })
    }

    /// Markdown export keeps links and projects (issue 31, item 6): a link is written by the
    /// title that reaches its item (a link by id or by a former title too), or by id where the
    /// title is shared; an item of a project is in the project's folder. Imported into a
    /// fresh store, each link reaches the same item and each item has its project; a file
    /// without a header takes its folder's project.
    @Test func markdownExportKeepsLinksAndProjectFolders() throws {
        let source = try QuireCLI()
        let target = try QuireCLI()
        defer {
            source.remove()
            target.remove()
        }
        let garden = try source.add("Garden plan", "--project", "home.garden")
        let seeds = try source.add("Seeds", "--task", "--project", "home.garden")
        let twinA = try source.add("Twin")
        let twinB = try source.add("Twin", "--project", "work")
        let renamed = try source.add("Old name")
        #expect(try source.run("edit", renamed, "--title", "New name").status == 0)
        let spring = try source.add(
            "Spring", "--project", "home",
            "--body",
            "See [[garden plan]], buy [[\(seeds)]], read [[Twin]] and [[\(twinA)]].\n"
                + "Also [[Nowhere]], `[[Garden plan]]` in code.")
        // A link by a former title, written after the rename (the rewrite on rename cannot
        // have seen it): it reaches the item here through the title history only.
        let later = try source.add("Later", "--body", "after [[Old name]]")
        let linksBefore = try source.json("links", later, "--json") as? [[String: Any]]
        #expect((linksBefore?.first?["item"] as? [String: Any])?["id"] as? String == renamed)

        let folder = source.home + "/md"
        let export = try source.run("export", "--format", "markdown", "--output", folder)
        #expect(export.status == 0, "\(export.stderr)")
        let files = (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".md") }
        #expect(files.filter { $0.hasPrefix("home/garden/") && !$0.dropFirst(12).contains("/") }.count == 2, "\(files)")
        #expect(files.filter { $0.hasPrefix("home/") && !$0.dropFirst(5).contains("/") }.count == 1, "\(files)")
        #expect(files.filter { $0.hasPrefix("work/") }.count == 1, "\(files)")
        #expect(files.filter { !$0.contains("/") }.count == 3, "\(files)")
        let springFile = try #require(files.first { $0.contains("spring-") })
        let springText = try String(contentsOfFile: folder + "/" + springFile, encoding: .utf8)
        #expect(
            springText.contains(
                "See [[Garden plan]], buy [[Seeds]], read [[Twin]] and [[\(twinA)]].\n"
                    + "Also [[Nowhere]], `[[Garden plan]]` in code."),
            "by title where the title reaches the item, by id where another item shares it: \(springText)")
        let laterFile = try #require(files.first { $0.contains("later-") })
        #expect(try String(contentsOfFile: folder + "/" + laterFile, encoding: .utf8).contains("after [[New name]]"))
        try FileManager.default.createDirectory(atPath: folder + "/reading/books", withIntermediateDirectories: true)
        try "# Loose note\n\nno header".write(
            toFile: folder + "/reading/books/loose.md", atomically: true, encoding: .utf8)

        let imported = try target.run("import", folder)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("8 new"), "\(imported.stdout)")
        let items = try target.allItems()
        func project(_ id: String) -> String? { items.first { $0["id"] as? String == id }?["project"] as? String }
        #expect(project(garden) == "home.garden" && project(seeds) == "home.garden" && project(spring) == "home")
        #expect(project(twinB) == "work" && project(twinA) == nil)
        #expect(items.first { $0["title"] as? String == "Loose note" }?["project"] as? String == "reading.books")
        let links = try #require(try target.json("links", spring, "--json") as? [[String: Any]])
        #expect(
            links.map { ($0["item"] as? [String: Any])?["id"] as? String } == [garden, seeds, twinB, twinA, nil],
            "every link reaches the item it reached before the export")
        let laterLinks = try #require(try target.json("links", later, "--json") as? [[String: Any]])
        #expect((laterLinks.first?["item"] as? [String: Any])?["id"] as? String == renamed)
    }

    @Test func taskwarriorExportImports() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let file = cli.home + "/tasks.json"
        try """
        [
        {"id":1,"description":"Pay rent","entry":"20261101T090000Z","modified":"20261101T090000Z","status":"pending","uuid":"5f3c8a1e-2b4d-4e6f-9a8b-7c6d5e4f3a2b","due":"20261130T120000Z","priority":"H","project":"home","tags":["money"]},
        {"id":0,"description":"Filed taxes","end":"20250402T100000Z","entry":"20250301T100000Z","status":"completed","uuid":"11111111-2222-4333-8444-555555555555"}
        ]
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let result = try cli.run("import", file)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("2 new"))
        let items = try cli.allItems()
        let rent = try #require(items.first { $0["title"] as? String == "Pay rent" })
        #expect(
            rent["kind"] as? String == "task" && rent["priority"] as? String == "high"
                && rent["due"] as? String == "2026-11-30")
        #expect(rent["tags"] as? [String] == ["money"] && rent["project"] as? String == "home")
        #expect(items.first { $0["title"] as? String == "Filed taxes" }?["done"] as? Bool == true)
        let again = try cli.run("import", file, "--format", "taskwarrior")
        #expect(again.stdout.contains("2 unchanged"))
        #expect(!again.stdout.contains("not kept"), "everything of these two tasks was kept: \(again.stdout)")
    }

    /// What Quire cannot keep of a Taskwarrior task (`depends`, a user-defined attribute, a
    /// rule it has no form for) is named in the summary with how many tasks had it; recurrence
    /// (a template and its pending instance: one series), `wait` and `scheduled` are kept, and
    /// importing the same export again changes nothing.
    @Test func aTaskwarriorImportSaysWhatItDidNotKeep() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let file = cli.home + "/tasks.json"
        try """
        [
        {"description":"Water plants","entry":"20261101T090000Z","status":"recurring","recur":"weekly","due":"20261101T090000Z","mask":"-","uuid":"aaaaaaaa-2b4d-4e6f-9a8b-7c6d5e4f3a21"},
        {"description":"Water plants","entry":"20261101T090000Z","status":"pending","recur":"weekly","parent":"aaaaaaaa-2b4d-4e6f-9a8b-7c6d5e4f3a21","imask":1,"due":"20261108T090000Z","uuid":"bbbbbbbb-2b4d-4e6f-9a8b-7c6d5e4f3a22"},
        {"description":"Renew passport","entry":"20261101T090000Z","status":"pending","wait":"20261201T090000Z","estimate":"2h","depends":"bbbbbbbb-2b4d-4e6f-9a8b-7c6d5e4f3a22","uuid":"cccccccc-2b4d-4e6f-9a8b-7c6d5e4f3a23"},
        {"description":"Book flights","entry":"20261101T090000Z","status":"pending","estimate":"1h","scheduled":"20261103T090000Z","uuid":"dddddddd-2b4d-4e6f-9a8b-7c6d5e4f3a24"},
        {"description":"Stand up","entry":"20261101T090000Z","status":"pending","recur":"weekdays","due":"20261102T090000Z","uuid":"eeeeeeee-2b4d-4e6f-9a8b-7c6d5e4f3a25"}
        ]
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let result = try cli.run("import", file)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.contains("4 new") == true, "\(result.stdout)")
        #expect(
            lines.last == "not kept: estimate (2 tasks), depends (1 task), recur (1 task)", "\(result.stdout)")
        let items = try cli.allItems()
        func item(_ title: String) -> [String: Any]? { items.first { $0["title"] as? String == title } }
        #expect(items.filter { $0["title"] as? String == "Water plants" }.count == 1, "one series: \(items)")
        #expect(item("Water plants")?["recur"] as? String == "weekly")
        #expect(item("Water plants")?["due"] as? String == "2026-11-08")
        #expect(item("Renew passport")?["wait"] as? String == "2026-12-01")
        #expect(item("Book flights")?["scheduled"] as? String == "2026-11-03")
        #expect(item("Stand up")?["recur"] is NSNull)
        let before = try cli.snapshot()
        let again = try cli.run("import", file)
        #expect(again.status == 0 && again.stdout.contains("4 unchanged"), "\(again.stdout)")
        #expect(try cli.snapshot() == before, "importing again changes nothing")
    }
}
