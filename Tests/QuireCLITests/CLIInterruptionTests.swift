import Foundation
import GRDB
import QuireStore
import QuireTestSupport
import Testing

/// A command killed in the middle of a write leaves the database consistent: SQLite's
/// transaction is all or nothing, and the item, its history and its outbox op are one transaction.
@Suite struct CLIInterruptionTests {
    /// The store's invariants, checked on the file directly.
    func checkConsistency(_ cli: QuireCLI, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let queue = try DatabaseQueue(path: cli.database)
        defer { try? queue.close() }
        try queue.read { db in
            #expect(try String.fetchAll(db, sql: "PRAGMA integrity_check") == ["ok"], sourceLocation: sourceLocation)
            let orphans = try Int.fetchOne(
                db,
                sql: """
                    SELECT count(*) FROM item WHERE NOT EXISTS (SELECT 1 FROM itemVersion v WHERE v.itemId = item.id)
                    """)
            #expect(orphans == 0, "items without history", sourceLocation: sourceLocation)
            let unsent = try Int.fetchOne(
                db,
                sql: """
                    SELECT count(*) FROM item WHERE deleted = 0 AND rev = 0
                    AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.itemId = item.id AND o.kind = 'create')
                    """)
            #expect(unsent == 0, "new items without their create op", sourceLocation: sourceLocation)
            let items = try Int.fetchOne(db, sql: "SELECT count(*) FROM item") ?? -1
            let indexed = try Int.fetchOne(db, sql: "SELECT count(*) FROM itemSearch") ?? -2
            #expect(items == indexed, "search index out of step", sourceLocation: sourceLocation)
            #expect(
                try Bool.fetchOne(db, sql: AppDatabase.talliesAgreeSQL) == true, "tallies out of step",
                sourceLocation: sourceLocation)
        }
        try queue.inDatabase { db in
            try db.execute(sql: "INSERT INTO itemSearch(itemSearch, rank) VALUES ('integrity-check', 1)")
            try db.execute(sql: "INSERT INTO itemHeadSearch(itemHeadSearch, rank) VALUES ('integrity-check', 1)")
        }
    }

    /// Waits (polling, with a deadline) until the child has written at least `bytes` bytes
    /// (its `wchar` in /proc): it is then in the middle of writing the database.
    func waitUntilWritten(_ process: SpawnedProcess, atLeast bytes: Int) -> Bool {
        let path = "/proc/\(process.processIdentifier)/io"
        var wrote = false
        waitUntil(timeout: 20, every: 0.0002) {
            if let text = try? String(contentsOfFile: path, encoding: .utf8),
                let line = text.split(separator: "\n").first(where: { $0.hasPrefix("wchar:") }),
                let written = Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces)), written >= bytes
            {
                wrote = true
            }
            return wrote || !process.isRunning
        }
        return wrote
    }

    @Test func killedImportsLeaveAllOrNothing() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        _ = try cli.add("before the imports")
        let file = cli.home + "/big.json"
        var json = "["
        for index in 0..<30_000 {
            json +=
                (index == 0 ? "" : ",")
                + "{\"title\": \"imported \(index)\", \"body\": \"\(String(repeating: "words ", count: 20))\", \"tags\": [\"bulk\"]}"
        }
        try (json + "]").write(toFile: file, atomically: true, encoding: .utf8)
        var killed = 0
        for threshold in [1, 2 << 20, 8 << 20] {
            let (process, capture) = try cli.start(["import", file])
            if waitUntilWritten(process, atLeast: threshold) && process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                killed += 1
            }
            let result = QuireCLI.collect(process, capture)
            try checkConsistency(cli)
            let count = try cli.allItems().count
            #expect((count - 1) % 30_000 == 0, "partial import: \(count) items (exit \(result.status))")
        }
        #expect(killed > 0, "no import was caught mid-write")
        #expect(try cli.run("list").status == 0, "the store opens normally after a kill")
    }

    @Test func killedAddsLeaveEveryItemWithItsHistoryAndOp() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        _ = try cli.add("first")
        var finished = 0
        for index in 0..<40 {
            let (process, capture) = try cli.start(["add", "item \(index)", "--tag", "t", "--body", "b"])
            // Kill at varied points of the process's life: right away, or once its WAL is in use.
            if index % 2 == 0 { _ = waitUntilWritten(process, atLeast: 1) }
            kill(process.processIdentifier, SIGKILL)
            if QuireCLI.collect(process, capture).status == 0 { finished += 1 }
        }
        try checkConsistency(cli)
        let count = try cli.allItems().count
        #expect(count >= 1 + finished && count <= 41)
    }
}
