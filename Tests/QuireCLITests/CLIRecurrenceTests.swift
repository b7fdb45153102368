import Foundation
import Testing

/// Recurrence, wait and scheduled on the built binary (SPEC: Items, CLI, Filters; issue 30,
/// items 2 and 5).
@Suite struct CLIRecurrenceTests {
    private func item(_ cli: QuireCLI, _ id: String) throws -> [String: Any] {
        try cli.json(["show", id, "--json"]) as? [String: Any] ?? [:]
    }

    /// Live items that are open tasks, as JSON.
    private func openTasks(_ cli: QuireCLI) throws -> [[String: Any]] {
        try cli.allItems().filter { $0["deleted"] as? Bool == false && $0["done"] as? Bool == false }
    }

    @Test func completingAnOccurrenceBringsUpTheNextOnceAndKeepsTheDoneOne() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let id = try cli.add(
            "Pay rent", "--task", "--due", "2026-01-31", "--recur", "monthly", "--tag", "home", "--project", "flat")
        #expect(try item(cli, id)["recur"] as? String == "monthly")
        #expect(try cli.run("show", id).stdout.contains("monthly"))

        let completed = try cli.run("done", id)
        #expect(completed.status == 0)
        let open = try openTasks(cli)
        #expect(open.count == 1)
        let next = try #require(open.first)
        #expect(next["due"] as? String == "2026-02-28")
        #expect(next["title"] as? String == "Pay rent" && next["project"] as? String == "flat")
        #expect(next["tags"] as? [String] == ["home"])
        #expect(next["recur"] as? String == "monthly@31")
        // `done` says where the series goes on, with the short id a person types next.
        let nextID = try #require(next["id"] as? String)
        let lines = completed.stdout.split(separator: "\n")
        #expect(lines.count == 2, "\(completed.stdout)")
        #expect(lines.last?.hasPrefix("next: ") == true && lines.last?.hasSuffix("Pay rent  due 2026-02-28") == true)
        #expect(try cli.run("show", String(lines.last!.split(separator: " ")[1])).stdout.contains(nextID))
        // The completed occurrence stays, done, where done tasks are listed.
        #expect(try cli.listedIDs(["status:done"]) == [id])

        // Reopened and completed again (or undone and done again): still one next occurrence.
        #expect(try cli.run("reopen", id).status == 0)
        #expect(try cli.run("done", id).status == 0)
        #expect(try cli.run("undo").status == 0)
        #expect(try cli.run("done", id).status == 0)
        #expect(try openTasks(cli).count == 1)

        // The next one completes into the one after, back on the 31st.
        #expect(try cli.run("done", nextID).status == 0)
        #expect(try openTasks(cli).map { $0["due"] as? String } == ["2026-03-31"])
    }

    @Test func stoppingOrDeletingWorksAsAPersonExpects() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let stopped = try cli.add("Water plants", "--task", "--due", "2026-06-01", "--recur", "2w")
        #expect(try cli.run("edit", stopped, "--recur", "none").status == 0)
        #expect(try cli.run("done", stopped).status == 0)
        #expect(try openTasks(cli).isEmpty, "a stopped series brings up nothing")

        // Deleting one occurrence deletes just it; the series goes on from the next one.
        let weekly = try cli.add("Backup", "--task", "--due", "2026-06-01", "--recur", "weekly")
        #expect(try cli.run("done", weekly).status == 0)
        let next = try #require(try openTasks(cli).first?["id"] as? String)
        #expect(try cli.run("rm", weekly).status == 0)
        #expect(try openTasks(cli).map { $0["id"] as? String } == [next])
        #expect(try cli.run("done", next).status == 0)
        #expect(try openTasks(cli).map { $0["due"] as? String } == ["2026-06-15"])
    }

    @Test func aRuleNeedsATaskWithADueDateAndAKnownForm() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        _ = try cli.add("A store to compare")
        let before = try cli.snapshot()
        let noDue = try cli.run("add", "Stretch", "--task", "--recur", "daily")
        #expect(noDue.status == 1)
        #expect(noDue.stderr.contains("only a task with a due date recurs"), "\(noDue.stderr)")
        #expect(noDue.stderr.split(separator: "\n").count == 1)
        let bad = try cli.run("add", "Stretch", "--task", "--due", "today", "--recur", "sometimes")
        #expect(bad.status == 1 && bad.stderr.contains("invalid recurrence 'sometimes'"), "\(bad.stderr)")
        let note = try cli.run("add", "Idea", "--due", "today", "--recur", "daily")
        #expect(note.status == 1, "\(note.stderr)")
        #expect(try cli.snapshot() == before, "nothing changed")

        let task = try cli.add("Stretch", "--task", "--due", "2026-06-01", "--recur", "daily")
        let cleared = try cli.run("edit", task, "--due", "none")
        #expect(cleared.status == 1 && cleared.stderr.contains("--recur none"), "\(cleared.stderr)")
    }

    @Test func aWaitingTaskIsHiddenUntilItsDate() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let later = try cli.add("Renew passport", "--task", "--wait", "+3d", "--scheduled", "+5d")
        let now = try cli.add("Buy milk", "--task", "--wait", "yesterday")
        let note = try cli.add("Notes")
        #expect(try cli.listedIDs([]) == [note, now])
        #expect(try cli.listedIDs(["status:waiting"]) == [later])
        #expect(try cli.listedIDs(["wait.after:today"]) == [later])
        #expect(try cli.listedIDs(["scheduled.after:+4d"]).isEmpty, "a scheduled term does not show waiting tasks")
        #expect(try cli.listedIDs(["scheduled.after:+4d", "--all"]) == [later])
        #expect(try cli.listedIDs(["scheduled:none", "kind:task"]) == [now])
        #expect(try cli.listedIDs(["--all"]).contains(later))
        let next = try cli.json(["next", "--json"]) as? [[String: Any]] ?? []
        #expect(next.compactMap { $0["id"] as? String } == [now])
        let shown = try item(cli, later)
        #expect(shown["wait"] as? String != nil && shown["scheduled"] as? String != nil)

        // No longer waiting once the date is cleared.
        #expect(try cli.run("edit", later, "--wait", "none").status == 0)
        #expect(try cli.listedIDs(["status:waiting"]).isEmpty)
        #expect(try cli.listedIDs([]).contains(later))
        let bad = try cli.run("list", "status:someday")
        #expect(bad.status == 1 && bad.stderr.contains("open, done or waiting"), "\(bad.stderr)")
    }
}
