import Foundation
import Testing

/// `quire next` and `quire agenda` on the built binary, with dates in words counted from the
/// real today (TZ=UTC), so each case names its dates relative to it.
@Suite struct CLINextAgendaTests {
    func titles(_ cli: QuireCLI, _ arguments: String...) throws -> [String] {
        (try cli.json(arguments + ["--json"]) as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
    }

    @Test func nextOrdersOpenTasksByUrgency() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        _ = try cli.add("Someday", "--task")
        _ = try cli.add("Important", "--task", "--priority", "h")
        _ = try cli.add("Overdue", "--task", "--due", "-2d")
        _ = try cli.add("Due today", "--task", "--due", "today", "--priority", "l")
        _ = try cli.add("Next week", "--task", "--due", "+7d")
        _ = try cli.add("A note", "--due", "yesterday")
        let finished = try cli.add("Finished", "--task", "--due", "-5d")
        #expect(try cli.run("done", finished).status == 0)
        // Overdue 12; today 10 + low 1.8; high 6; a week away 5; nothing 0. Notes and done tasks never.
        #expect(try titles(cli, "next") == ["Overdue", "Due today", "Important", "Next week", "Someday"])
        #expect(try titles(cli, "next", "--limit", "2") == ["Overdue", "Due today"])
        #expect(try titles(cli, "next", "priority:high") == ["Important"])
        let human = try cli.run("next")
        #expect(human.status == 0)
        #expect(human.stdout.split(separator: "\n").first?.contains("Overdue") == true)
        let bad = try cli.run("next", "kind:idea")
        #expect(bad.status == 1 && bad.oneErrorLine)
    }

    @Test func agendaListsDueTasksByDayUnderHeadings() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        _ = try cli.add("Late", "--task", "--due", "-3d")
        _ = try cli.add("Now low", "--task", "--due", "today", "--priority", "l")
        _ = try cli.add("Now high", "--task", "--due", "today", "--priority", "h")
        _ = try cli.add("Soon", "--task", "--due", "tomorrow")
        _ = try cli.add("Far", "--task", "--due", "+20d")
        _ = try cli.add("Undated", "--task")
        #expect(try titles(cli, "agenda") == ["Late", "Now high", "Now low", "Soon"])
        #expect(try titles(cli, "agenda", "--days", "30") == ["Late", "Now high", "Now low", "Soon", "Far"])
        #expect(try titles(cli, "agenda", "--days", "0") == ["Late", "Now high", "Now low"])
        let human = try cli.run("agenda").stdout
        let headings = human.split(separator: "\n").filter { !$0.isEmpty && !$0.contains("[ ]") }
        #expect(headings.count == 3, "\(human)")
        #expect(headings.first == "Overdue")
        #expect(headings.dropFirst().first?.hasPrefix("Today · ") == true)
        #expect(headings.last?.hasPrefix("Tomorrow · ") == true)
        let bad = try cli.run("agenda", "--days", "-1")
        #expect(bad.status == 1 && bad.oneErrorLine)
    }

    @Test func listSortsByWhatItIsAskedFor() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        _ = try cli.add("Later", "--task", "--due", "+9d", "--priority", "l")
        _ = try cli.add("Sooner", "--task", "--due", "+1d")
        _ = try cli.add("Pinned note", "--pin")
        let urgent = try cli.add("Urgent", "--task", "--priority", "h")
        #expect(try titles(cli, "list") == ["Pinned note", "Urgent", "Sooner", "Later"])
        #expect(try titles(cli, "list", "--sort", "due") == ["Sooner", "Later", "Urgent", "Pinned note"])
        #expect(try titles(cli, "list", "--sort", "priority") == ["Urgent", "Later", "Pinned note", "Sooner"])
        #expect(try titles(cli, "list", "--sort", "created") == ["Urgent", "Pinned note", "Sooner", "Later"])
        // Sooner: 10 × 13/14 ≈ 9.3; Later: 10 × 5/14 + 1.8 ≈ 5.4; Urgent: 6.
        #expect(try titles(cli, "list", "--sort", "urgency", "kind:task") == ["Sooner", "Urgent", "Later"])
        #expect(try cli.run("edit", urgent, "--title", "Urgent now").status == 0)
        #expect(try titles(cli, "list", "--sort", "updated", "--limit", "1") == ["Urgent now"])
        let bad = try cli.run("list", "--sort", "size")
        #expect(bad.status == 1 && bad.oneErrorLine)
    }
}
