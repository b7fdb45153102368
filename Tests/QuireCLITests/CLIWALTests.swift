import Foundation
import GRDB
import Testing

/// One-shot commands never close their connection, so each next command starts with SQLite's
/// recovery of the whole WAL. The store empties the WAL once it passes a bound; without that, it
/// would grow with every command and every command would read and copy all of it again.
@Suite struct CLIWALTests {
    func walSize(_ cli: QuireCLI) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: cli.database + "-wal"))?[.size] as? Int) ?? 0
    }

    @Test func manyCommandsKeepTheWALBoundedAndLoseNothing() throws {
        let cli = try QuireCLI()
        defer { cli.remove() }
        let body = String(repeating: "a line of body text for the write-ahead log\n", count: 200)
        var largest = 0
        for index in 0..<150 {
            let result = try cli.run("add", "note \(index)", "--body", body)
            #expect(result.status == 0, "\(result.stderr)")
            largest = max(largest, walSize(cli))
        }
        // About 9 KiB of body per command: 150 commands write well over 1 MiB of pages.
        #expect(largest > 256 * 1024, "the WAL is kept between commands, not emptied at each one")
        #expect(largest < 1024 * 1024 + 256 * 1024, "largest WAL: \(largest) bytes")
        let queue = try DatabaseQueue(path: cli.database)
        defer { try? queue.close() }
        #expect(try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM item") } == 150)
        #expect(try queue.read { try String.fetchAll($0, sql: "PRAGMA integrity_check") } == ["ok"])
    }
}
