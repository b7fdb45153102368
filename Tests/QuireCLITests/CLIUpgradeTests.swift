import Foundation
import GRDB
import Testing

/// A store written by an earlier version is upgraded by the first command that opens it. That
/// can take seconds for a large store (an index rebuilt over every item), so the command says
/// so on standard error, once; the items are all still there.
@Suite struct CLIUpgradeTests {
    static let notice = "quire: upgrading the store for this version of Quire…\n"

    @Test func anOlderStoreSaysOnceThatItIsUpgradedAndKeepsItsItems() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let added = try cli.run("add", "Kept across the upgrade")
        #expect(added.status == 0)
        #expect(added.stderr.isEmpty, "creating a store is not an upgrade: \(added.stderr)")
        do {
            // Back to the schema before the newest migration, as the previous version left it.
            let queue = try DatabaseQueue(path: cli.database)
            try queue.write { db in
                let newest = try String.fetchOne(
                    db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid DESC LIMIT 1")
                try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = ?", arguments: [newest])
            }
            try queue.close()
        }
        let upgraded = try cli.run("list")
        #expect(upgraded.status == 0)
        #expect(upgraded.stderr == Self.notice)
        #expect(upgraded.stdout.contains("Kept across the upgrade"))
        let again = try cli.run("list")
        #expect(again.status == 0 && again.stderr.isEmpty, "\(again.stderr)")
    }
}
