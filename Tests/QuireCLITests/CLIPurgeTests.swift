import Foundation
import GRDB
import Testing

/// `quire rm --purge` (SPEC: The trash): deletes for good after asking, and says so in one
/// line when it cannot ask.
@Suite struct CLIPurgeTests {
    func rows(_ cli: QuireCLI, _ sql: String, _ arguments: StatementArguments = []) throws -> Int {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: cli.database, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { try Int.fetchOne($0, sql: sql, arguments: arguments) ?? -1 }
    }

    @Test func purgeRemovesTheItemAndAllItLeftBehind() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let doomed = try cli.add("Old diary", "--body", "see [[Kept]]")
        let kept = try cli.add("Kept", "--body", "back to [[Old diary]]")
        #expect(try cli.run("edit", doomed, "--title", "Older diary").status == 0)
        let purged = try cli.run("rm", "--purge", "--yes", doomed)
        #expect(purged.status == 0, "\(purged.stderr)")
        #expect(purged.stdout.hasPrefix("purged: "), "\(purged.stdout)")
        for table in ["item WHERE id", "itemVersion WHERE itemId", "outbox WHERE itemId", "draft WHERE itemId"] {
            #expect(try rows(cli, "SELECT count(*) FROM \(table) = ?", [doomed]) == 0, "\(table)")
        }
        #expect(try rows(cli, "SELECT count(*) FROM itemCode") == 1, "its short id is free again")
        #expect(try rows(cli, "SELECT count(*) FROM itemTitle WHERE key = 'older diary'") == 0, "its titles went")
        #expect(try cli.run("show", doomed).status == 2, "not found: it is gone")
        #expect(try cli.allItems().compactMap { $0["id"] as? String } == [kept])
        let links = try #require(try cli.json("links", kept, "--json") as? [[String: Any]])
        #expect(links.first?["item"] is NSNull, "a link to a purged item reaches nothing")
    }

    @Test func purgeAsksAtATerminalAndRefusesInAPipeWithoutYes() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let item = try cli.add("Receipts")
        let before = try cli.snapshot()
        let piped = try cli.run("rm", "--purge", item)
        #expect(piped.status == 1 && piped.oneErrorLine, "\(piped.stderr)")
        #expect(piped.stderr.contains("--yes"), "\(piped.stderr)")
        #expect(try cli.snapshot() == before, "nothing changed")

        let declined = try cli.runOnTerminal(["rm", "--purge", item], stdin: "n\n")
        #expect(declined.stdout.contains("for good"), "\(declined.stdout)")
        #expect(declined.stdout.contains("Nothing purged."), "\(declined.stdout)")
        #expect(try cli.snapshot() == before, "a no changes nothing")

        let accepted = try cli.runOnTerminal(["rm", "--purge", item], stdin: "y\n")
        #expect(accepted.status == 0, "\(accepted.stdout)")
        #expect(accepted.stdout.contains("purged: "), "\(accepted.stdout)")
        #expect(try cli.allItems().isEmpty)
    }
}
