import Foundation
import GRDB
import Testing

/// Links on the built binary (SPEC: Links, Filters): `quire links`, `quire backlinks`, the
/// `has:link` and `links:ID` terms, and renaming that keeps links working.
@Suite struct CLILinkTests {
    func ids(_ cli: QuireCLI, _ arguments: String...) throws -> [String] { try cli.listedIDs(arguments) }

    @Test func linksAndBacklinksFollowTitlesAndIds() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let garden = try cli.add("Garden plan")
        let seeds = try cli.add("Seeds", "--task")
        let gone = try cli.add("Old recipe")
        #expect(try cli.run("rm", gone).status == 0)
        let note = try cli.add(
            "Spring", "--body",
            "See [[garden PLAN]], buy [[\(seeds)]].\nAlso [[Old recipe]] and [[Nowhere]].\n`[[Garden plan]]` is code.")
        let plain = try cli.add("Unlinked", "--body", "nothing here")

        let links = try #require(try cli.json("links", note, "--json") as? [[String: Any]])
        #expect(links.map { $0["link"] as? String } == ["garden PLAN", seeds, "Old recipe", "Nowhere"])
        #expect(links.map { ($0["item"] as? [String: Any])?["id"] as? String } == [garden, seeds, gone, nil])
        #expect((links[2]["item"] as? [String: Any])?["deleted"] as? Bool == true)
        #expect(links[3]["item"] is NSNull, "an unresolved link says so with null")

        let human = try cli.run("links", note)
        #expect(human.status == 0)
        #expect(human.stdout.contains("[[garden PLAN]]") && human.stdout.contains("Garden plan"), "\(human.stdout)")
        #expect(human.stdout.contains("[[Nowhere]]  (missing)"), "\(human.stdout)")
        #expect(human.stdout.contains("(deleted)"), "\(human.stdout)")

        let back = try #require(try cli.json("backlinks", garden, "--json") as? [[String: Any]])
        #expect(back.compactMap { $0["id"] as? String } == [note])
        #expect(try cli.run("backlinks", garden).stdout.contains("Spring"))
        #expect(try ids(cli, "has:link") == [note])
        #expect(try ids(cli, "links:\(seeds)") == [note])
        #expect(try ids(cli, "links:\(plain)").isEmpty)

        // An edit of the body is an edit of its links.
        #expect(try cli.run("edit", note, "--body", "only [[Seeds]] now").status == 0)
        #expect(try ids(cli, "links:\(garden)").isEmpty)
        #expect(try ids(cli, "links:\(seeds)") == [note])

        let unknown = try cli.run("list", "links:ffff")
        #expect(unknown.status != 0 && unknown.oneErrorLine, "\(unknown.stderr)")
        let badHas = try cli.run("list", "has:nothing")
        #expect(badHas.status == 1 && badHas.oneErrorLine && badHas.stderr.contains("has:"), "\(badHas.stderr)")
    }

    /// `[[short id]]` as a person types it (the short id `quire list` shows) is kept as the
    /// item's full id, which means the same item on every device; a title that happens to look
    /// like a short id wins, as it does when the link is read.
    @Test func aShortIdInALinkIsKeptAsTheFullId() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let target = try cli.add("Seed catalogue")
        let short = try cli.shortID(of: "Seed catalogue")
        let note = try cli.add("Order", "--body", "from [[\(short)]], and [[\(short.uppercased())]] again")
        let shown = try #require(try cli.json("show", note, "--json") as? [String: Any])
        #expect(shown["body"] as? String == "from [[\(target)]], and [[\(target)]] again")
        #expect(try ids(cli, "links:\(target)") == [note])

        // An edit is written the same way.
        #expect(try cli.run("edit", note, "--body", "only [[ \(short) ]]").status == 0)
        let edited = try #require(try cli.json("show", note, "--json") as? [String: Any])
        #expect(edited["body"] as? String == "only [[\(target)]]")

        // A title outranks a short id, and text that is neither stays as typed.
        let named = try cli.add(short)
        let other = try cli.add("Other", "--body", "[[\(short)]] and [[zzzz]]")
        let kept = try #require(try cli.json("show", other, "--json") as? [String: Any])
        #expect(kept["body"] as? String == "[[\(short)]] and [[zzzz]]")
        #expect(try ids(cli, "links:\(named)") == [other])
    }

    @Test func twoItemsWithOneTitleLinkTheNewest() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        _ = try cli.add("Minutes")
        let newer = try cli.add("minutes")
        let note = try cli.add("Index", "--body", "[[MINUTES]]")
        let links = try #require(try cli.json("links", note, "--json") as? [[String: Any]])
        #expect((links.first?["item"] as? [String: Any])?["id"] as? String == newer)
    }

    @Test func renamingAnItemRewritesTheLinksToItAsEdits() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let target = try cli.add("Old name")
        let note = try cli.add("Pointer", "--body", "go to [[old name]]\n```\n[[Old name]]\n```")
        #expect(try cli.run("edit", target, "--title", "New name").status == 0)
        let shown = try #require(try cli.json("show", note, "--json") as? [String: Any])
        #expect(shown["body"] as? String == "go to [[New name]]\n```\n[[Old name]]\n```", "code is left as typed")
        #expect(try ids(cli, "links:\(target)") == [note])
        // A link by the old title written after the rename still reaches the item.
        let late = try cli.add("Late", "--body", "[[Old name]]")
        #expect(try ids(cli, "links:\(target)") == [late, note])
        let history = try #require(try cli.json("history", note, "--json") as? [Any])
        #expect(history.count == 2, "the rewrite is an edit of its own, in the history")
    }

    @Test func anUpgradeFillsTheLinksOfItemsItFinds() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let target = try cli.add("Target")
        let note = try cli.add("Note", "--body", "[[Target]]")
        do {
            // As the version before links left it: no index, and the step not yet run.
            let queue = try DatabaseQueue(path: cli.database)
            try queue.write { db in
                try db.execute(sql: "DELETE FROM itemLink; DELETE FROM itemTitle")
                try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v17 links'")
            }
            try queue.close()
        }
        #expect(try ids(cli, "links:\(target)") == [note])
        #expect(try ids(cli, "has:link") == [note])
    }
}
