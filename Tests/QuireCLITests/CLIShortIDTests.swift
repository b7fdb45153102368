import Foundation
import Testing

/// Short ids through the built binary: what `quire list` shows is what a person types.
@Suite struct CLIShortIDTests {
    /// Three items made in the same second: their ids share the timestamp, their short ids come
    /// from the random end.
    static let importFile = """
        [{"id": "0193a9d2-7fff-7000-8000-0000000a1b2c", "title": "Buy milk", "kind": "task", "due": "2026-11-30"},
         {"id": "0193a9d2-7fff-7001-8000-0000000b1b2c", "title": "Meeting notes", "tags": ["work"]},
         {"id": "0193a9d2-7fff-7002-8000-0000000c9f00", "title": "Call the plumber", "kind": "task"}]
        """

    static func cliWithThreeItems() throws -> QuireCLI {
        let cli = try QuireCLI()
        let file = cli.home + "/three.json"
        try importFile.write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try cli.run("import", file).status == 0)
        return cli
    }

    @Test func listRowsShowShortIDs() throws {
        let cli = try Self.cliWithThreeItems()
        defer { cli.remove() }
        let list = try cli.run("list")
        #expect(list.status == 0)
        #expect(
            list.stdout == """
                9f00  ●   [ ] Call the plumber
                b1b2c ●       Meeting notes               #work
                1b2c  ●   [ ] Buy milk         2026-11-30

                """)
    }

    @Test func shortIDsFullIDsAndPrefixesAllResolve() throws {
        let cli = try Self.cliWithThreeItems()
        defer { cli.remove() }
        func shown(_ argument: String, _ key: String = "id") throws -> String? {
            (try cli.json("show", argument, "--json") as? [String: Any])?[key] as? String
        }
        func shownID(_ argument: String) throws -> String? { try shown(argument) }
        #expect(try shownID("1b2c") == "0193a9d2-7fff-7000-8000-0000000a1b2c")
        #expect(try shownID("B1B2C") == "0193a9d2-7fff-7001-8000-0000000b1b2c", "case does not matter")
        #expect(try shownID("0193a9d2-7fff-7002") == "0193a9d2-7fff-7002-8000-0000000c9f00", "a prefix of the full id")
        #expect(try shownID("0193a9d2-7fff-7001-8000-0000000b1b2c") == "0193a9d2-7fff-7001-8000-0000000b1b2c")

        #expect(try cli.run("done", "1b2c", "9f00").status == 0)
        let done = try cli.json("list", "--done", "--json") as? [[String: Any]] ?? []
        #expect(Set(done.compactMap { $0["title"] as? String }) == ["Buy milk", "Call the plumber"])
        #expect(try cli.run("edit", "b1b2c", "--title", "Minutes").status == 0)
        #expect(try shown("b1b2c", "title") == "Minutes")
        #expect(try cli.run("rm", "9f00").status == 0)
        #expect(try cli.run("restore", "9f00").status == 0, "deleted items keep their short id")
    }

    @Test func anAmbiguousPrefixListsTheCandidatesAndChangesNothing() throws {
        let cli = try Self.cliWithThreeItems()
        defer { cli.remove() }
        let before = try cli.snapshot()
        let result = try cli.run("done", "0193a9d2")
        #expect(result.status == 1)
        #expect(result.stderr.contains("is ambiguous"))
        // The candidates by the short ids lists show: what to type instead.
        #expect(result.stderr.contains("it matches 1b2c, b1b2c, 9f00;"), "\(result.stderr)")
        #expect(try cli.snapshot() == before)
        let unknown = try cli.run("show", "abab")
        #expect(unknown.status == 2 && unknown.stderr.contains("'abab'"))
    }
}

/// The CLI refuses what the server would refuse, before it writes anything.
@Suite struct CLILimitTests {
    @Test func anItemTooLargeForTheServerIsRefusedWithOneLine() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let title = String(repeating: "t", count: 80 << 10)
        let body = String(repeating: "b", count: 1 << 20)
        _ = try cli.add("Already here")
        let before = try cli.snapshot()
        let result = try cli.run(["add", title, "--body", "-"], stdin: body)
        #expect(result.status != 0)
        // The 80 KiB title passes the title's own limit (4 KiB) before the item's.
        #expect(result.stderr.contains("the limit is 4096 bytes"), "\(result.stderr.prefix(300))")
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(try cli.snapshot() == before)
    }
}
