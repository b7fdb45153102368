import Foundation
import QuireCore
import Testing

/// The CLI speaks with one voice: short ids wherever a person reads, the values people type
/// (priorities, tags, dates) read as lists show them, plain sentences for every refusal,
/// colour and progress on a terminal only.
@Suite struct CLIDailyUseTests {
    @Test func addSaysTheShortIdOnATerminalAndTheFullIdInAPipe() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let onTerminal = try cli.runOnTerminal(["add", "Buy", "oat", "milk", "--task"])
        #expect(onTerminal.status == 0, "\(onTerminal.stdout)")
        let short = try cli.shortID(of: "Buy oat milk")
        #expect(onTerminal.stdout == "added \(short)  Buy oat milk\n")
        let piped = try cli.run("add", "Call mum")
        #expect(piped.stdout.range(of: "^[0-9a-f-]{36}\n$", options: .regularExpression) != nil, "\(piped.stdout)")
        let json = try #require(try cli.json("add", "Water plants", "--task", "--json") as? [String: Any])
        #expect(json["title"] as? String == "Water plants" && json["kind"] as? String == "task")
        #expect((json["id"] as? String)?.count == 36)
    }

    @Test func prioritiesTakeTaskwarriorsShortNamesAndTheOnesListsShow() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        for (typed, stored) in [("h", "high"), ("M", "medium"), ("med", "medium"), ("medium", "medium"), ("l", "low")] {
            let id = try cli.add("Task \(typed)", "--task", "--priority", typed)
            #expect(
                (try cli.json("show", id, "--json") as? [String: Any])?["priority"] as? String == stored, "\(typed)")
            #expect(try cli.run("edit", id, "--priority", "n").status == 0)
            #expect(try cli.run("edit", id, "--priority", typed).status == 0)
        }
    }

    @Test func tagsDropTheHashAndMatchWithoutRegardToCase() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let hashed = try cli.add("Report", "--tag", "#work")
        _ = try cli.add("Shopping", "--tag", "home")
        let stored = try #require(try cli.json("show", hashed, "--json") as? [String: Any])
        #expect(stored["tags"] as? [String] == ["work"])
        for filter in ["#work", "work", "Work", "#WORK"] {
            let found = try cli.json("list", "--tag", filter, "--json") as? [[String: Any]] ?? []
            #expect(found.map { $0["id"] as? String } == [hashed], "--tag \(filter)")
        }
        #expect(try cli.run("list", "--tag", "Work").stdout.contains("#work"))
        #expect(try cli.run("edit", hashed, "--tag", "-#WORK", "--tag", "+#Later").status == 0)
        #expect((try cli.json("show", hashed, "--json") as? [String: Any])?["tags"] as? [String] == ["Later"])
    }

    /// A tag with a space reads as one tag wherever a person reads tags, written as the app
    /// writes it (`#"reading list"`); `--json` keeps the tag as it is stored.
    @Test func aTagWithASpaceIsQuotedInListsAndShow() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let id = try cli.add("Dune", "--tag", "reading list", "--tag", "books")
        let listed = try cli.run("list").stdout
        #expect(listed.contains("#books #\"reading list\""), "\(listed)")
        let found = try cli.run("search", "Dune").stdout
        #expect(found.contains("#books #\"reading list\""), "\(found)")
        let shown = try cli.run("show", id).stdout
        #expect(shown.contains("tags      #books #\"reading list\""), "\(shown)")
        let json = try #require(try cli.json("show", id, "--json") as? [String: Any])
        #expect(json["tags"] as? [String] == ["books", "reading list"])
    }

    @Test func aDateThatDoesNotExistIsNoSuchDay() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let id = try cli.add("Pay rent", "--task")
        for arguments in [["add", "x", "--task", "--due", "2026-02-30"], ["edit", id, "--due", "2026-02-30"]] {
            let result = try cli.run(arguments)
            #expect(result.status == 1 && result.stderr == "quire: no such day: 2026-02-30\n", "\(result.stderr)")
        }
        #expect(try cli.run("add", "x", "--due", "30.02.2026").stderr.contains("use YYYY-MM-DD"))
    }

    @Test func datesInWordsCountFromTodayWhereThePersonIs() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        // Today as the quire process will see it (it inherits this process's time zone).
        let parts = Calendar.current.dateComponents([.year, .month, .day], from: Date())
        let today = try #require(Day(year: parts.year!, month: parts.month!, day: parts.day!))
        for (word, expected) in [
            ("tomorrow", today.adding(days: 1)), ("+2w", today.adding(days: 14)), ("eom", today.endOfMonth),
        ] {
            let id = try cli.add("Due \(word)", "--task", "--due", word)
            let shown = try cli.json("show", id, "--json") as? [String: Any]
            #expect(shown?["due"] as? String == expected?.description, "--due \(word)")
        }
        let id = try cli.add("Moved", "--task")
        #expect(try cli.run("edit", id, "--due", "+1d").status == 0)
        #expect(
            (try cli.json("show", id, "--json") as? [String: Any])?["due"] as? String
                == today.adding(days: 1)?.description)
        let refused = try cli.run("add", "x", "--task", "--due", "someday")
        #expect(refused.status == 1)
        #expect(
            refused.stderr.hasPrefix("quire: 'someday' is not a date: use YYYY-MM-DD, today, tomorrow"),
            "\(refused.stderr)")
    }

    @Test func errorsNameItemsByTheirShortId() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let note = try cli.add("A note")
        let short = try cli.shortID(of: "A note")
        let refused = try cli.run("done", note)
        #expect(refused.stderr == "quire: 'A note' (\(short)) is a note; only tasks can be done or reopened\n")
        #expect(try cli.run("rm", note).status == 0)
        let deleted = try cli.run("edit", short, "--title", "x")
        #expect(deleted.stderr == "quire: 'A note' (\(short)) is deleted; restore it first with 'quire restore'\n")
        #expect(try cli.run("show", "ffff").stderr == "quire: no item has the id 'ffff'\n")
        #expect(try cli.run("show", short).stdout.contains("id        \(short)  (\(note))"))
    }

    @Test func removingADeletedItemSaysSoAsDoneDoes() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let id = try cli.add("Old idea")
        let short = try cli.shortID(of: "Old idea")
        #expect(try cli.run("rm", id).stdout == "deleted: \(short)  Old idea\n")
        let again = try cli.run("rm", id)
        #expect(again.status == 0 && again.stdout == "already deleted: \(short)  Old idea\n")
    }

    @Test func aSearchWithNoHitsSaysSoOnlyToAPerson() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        _ = try cli.add("Buy milk")
        let piped = try cli.run("search", "zebra")
        #expect(piped.status == 0 && piped.stdout.isEmpty && piped.stderr.isEmpty)
        #expect(try cli.run("search", "zebra", "--json").stdout == "[]\n")
        #expect(try cli.runOnTerminal(["search", "zebra"]).stdout == "No matches.\n")
    }

    /// One default for `quire list` and the app's list (`ListQuery()`): every live item, done
    /// tasks included; `--open` and `--done` are tasks alone, since a note has no checkbox.
    @Test func theListShowsWhatTheAppShowsAndOpenMeansOpenTasks() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let note = try cli.add("A note")
        let open = try cli.add("Open task", "--task")
        let done = try cli.add("Done task", "--task")
        #expect(try cli.run("done", done).status == 0)
        func listed(_ arguments: String...) throws -> [String] {
            (try cli.json(["list", "--json"] + arguments) as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        }
        #expect(try listed() == [done, open, note])
        #expect(try listed("--open") == [open])
        #expect(try listed("--done") == [done])
        #expect(try cli.run("list").stdout.contains("[x] Done task"))
    }

    @Test func theListIsInColourOnATerminalOnly() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        _ = try cli.add("Overdue", "--task", "--due", "2020-01-01", "--priority", "high")
        let finished = try cli.add("Finished late", "--task", "--due", "2020-01-02")
        #expect(try cli.run("done", finished).status == 0)
        let red = "\u{1B}[31m"
        let coloured = try cli.runOnTerminal(["list"], environment: ["NO_COLOR": ""])
        let lines = coloured.stdout.split(separator: "\n")
        let overdue = try #require(lines.first { $0.contains("Overdue") })
        #expect(overdue.contains(red + "2020-01-01"), "an overdue open task's date is red: \(overdue.debugDescription)")
        #expect(overdue.contains(red + "high"), "high priority is red")
        let late = try #require(lines.first { $0.contains("Finished late") })
        #expect(!late.contains(red), "a done task is never overdue: \(late.debugDescription)")
        #expect(!(try cli.runOnTerminal(["list"], environment: ["NO_COLOR": "1"]).stdout.contains("\u{1B}[")))
        #expect(!(try cli.run("list").stdout.contains("\u{1B}[")), "no colour in a pipe")
    }

    @Test func importShowsProgressOnATerminalOnly() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let file = cli.home + "/items.json"
        try ("[" + (0..<2_000).map { "{\"title\": \"Item \($0)\"}" }.joined(separator: ",") + "]")
            .write(toFile: file, atomically: true, encoding: .utf8)
        let shown = try cli.runOnTerminal(["import", file])
        #expect(shown.status == 0)
        #expect(shown.stdout.contains("importing 0 items"), "\(shown.stdout.debugDescription)")
        #expect(
            shown.stdout.hasSuffix("\r\u{1B}[Kimported 2000 items from \(file): 2000 new, 0 updated, 0 unchanged\n"))
        let quiet = try cli.runOnTerminal(["import", file, "--quiet"])
        #expect(quiet.status == 0 && !quiet.stdout.contains("importing"))
        let piped = try cli.run("import", file)
        #expect(piped.status == 0 && piped.stderr.isEmpty)
    }
}
