import Foundation
import GRDB
import QuireCore
import Testing

@testable import QuireStore

@Suite struct MigrationTests {
    @Test func anEmptyFileIsMigratedToTheFullSchema() throws {
        let directory = try StoreFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/quire.db"
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        var upgrades = 0
        let store = try AppDatabase.open(path: path, environment: .deterministic()) { upgrades += 1 }
        #expect(upgrades == 0, "a new store is no upgrade")
        let tables = try store.writer.read { db in
            try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type IN ('table', 'trigger') ORDER BY name")
        }
        for name in [
            "item", "itemVersion", "outbox", "syncMeta", "conflict", "syncEvent", "itemSearch",
            "item_search_insert", "item_search_update", "item_search_delete", "itemHeadSearch",
            "item_head_search_insert", "item_head_search_update", "item_head_search_delete",
        ] {
            #expect(tables.contains(name), "missing \(name)")
        }
        let journal = try store.writer.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
        #expect(journal == "wal")
        #expect(UUIDv7Generator.isValid(try store.deviceID()))
    }

    @Test func reopeningKeepsDataAndTheDeviceID() throws {
        let directory = try StoreFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/quire.db"
        var first: AppDatabase? = try AppDatabase.open(path: path, environment: .deterministic())
        let created = try first!.create(NewItem(title: "Kept"))
        let device = try first!.deviceID()
        first = nil
        let second = try AppDatabase.open(path: path, environment: .deterministic(seed: 99))
        #expect(try second.item(created.id)?.title == "Kept")
        #expect(try second.deviceID() == device)
        let migrations = AppDatabase.migrator(environment: .deterministic()).migrations
        #expect(try StoreFixture.count(second, "SELECT count(*) FROM grdb_migrations") == migrations.count)
    }

    @Test func aDatabaseFromANewerQuireIsRefusedAndLeftAlone() throws {
        let directory = try StoreFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/quire.db"
        do {
            let store = try AppDatabase.open(path: path, environment: .deterministic())
            try StoreFixture.execute(store, "INSERT INTO grdb_migrations (identifier) VALUES ('v99 from the future')")
            try store.close()
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(throws: StoreError.self) { try AppDatabase.open(path: path, environment: .deterministic()) }
        do {
            _ = try AppDatabase.open(path: path, environment: .deterministic())
        } catch {
            guard case .unusable(_, let reason) = error else {
                Issue.record("wrong error \(error)")
                return
            }
            #expect(reason.contains("newer version"))
        }
        let after = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(after == before)
        if after != before {
            let diffs = zip(before, after).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
            Issue.record("sizes \(before.count) \(after.count) first diffs \(diffs.prefix(20))")
        }
    }

    @Test func aFileThatIsNotSQLiteIsRefusedByteForByte() throws {
        let directory = try StoreFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/quire.db"
        let text = Data("These are my precious notes, not a database.\n".utf8)
        try text.write(to: URL(fileURLWithPath: path))
        do {
            _ = try AppDatabase.open(path: path, environment: .deterministic())
            Issue.record("opened a text file")
        } catch {
            #expect(error == .unusable(path: path, reason: "the file is not an SQLite database"))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == text)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    /// A store made before sync events had columns of their own: its log reads back typed,
    /// and a retry it logged while the server was out of reach still says so.
    @Test func aStoreWhoseEventsHadOnlyTextMigratesToTypedEvents() throws {
        let directory = try StoreFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/quire.db"
        let migrator = AppDatabase.migrator(environment: .deterministic())
        let first = try #require(migrator.migrations.first)
        do {
            let old = try DatabaseQueue(path: path)
            try migrator.migrate(old, upTo: first)
            try old.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO syncEvent (at, kind, message) VALUES
                          ('2026-11-20T10:00:00.000Z', 'SYNC_START', 'sync started'),
                          ('2026-11-20T10:00:01.000Z', 'PUSH_OK', 'pushed 1 op: 1 applied · 812 bytes · 9 ms'),
                          ('2026-11-20T10:00:02.000Z', 'RETRY', 'the server answered 503'),
                          ('2026-11-20T10:00:03.000Z', 'RETRY', 'server unreachable: connection refused')
                        """)
            }
            try old.close()
        }
        let store = try AppDatabase.open(path: path, environment: .deterministic())
        let events = try store.recentSyncEvents(limit: 10)
        #expect(events.map(\.kind) == [.retry, .retry, .pushOK, .syncStart])
        #expect(events.map(\.failure) == [.unreachable, .server, nil, nil])
        #expect(events[2].message == "pushed 1 op: 1 applied · 812 bytes · 9 ms", "the words are kept")
        #expect(events.allSatisfy { $0.bytes == nil && $0.duration == nil && $0.retryAfter == nil })
        #expect(try StoreFixture.count(store, "SELECT count(*) FROM grdb_migrations") == migrator.migrations.count)
    }

    /// A store made before the title-and-tag index: the migration indexes what it holds, so the
    /// first search after the upgrade ranks old items' titles first.
    @Test func aStoreFromBeforeTheTitleIndexIsIndexedOnUpgrade() throws {
        let directory = try StoreFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/quire.db"
        let migrator = AppDatabase.migrator(environment: .deterministic())
        var old: AppDatabase? = try AppDatabase.open(path: path, environment: .deterministic())
        let body = try old!.create(NewItem(title: "Shed", body: "garden tools"))
        let title = try old!.create(NewItem(title: "Garden plan"))
        let tagged = try old!.create(NewItem(title: "Seeds", tags: ["garden"]))
        try old!.close()
        old = nil
        do {
            // Back to the schema before v10, as an older Quire left it.
            let queue = try DatabaseQueue(path: path)
            try queue.write { db in
                try db.execute(sql: "DROP TABLE itemHeadSearch")
                for trigger in ["insert", "update", "delete"] {
                    try db.execute(sql: "DROP TRIGGER item_head_search_\(trigger)")
                }
                try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v10 title and tag search'")
            }
            try queue.close()
        }
        var upgrades = 0
        let store = try AppDatabase.open(path: path, environment: .deterministic()) { upgrades += 1 }
        #expect(upgrades == 1, "the caller is told before an upgrade runs")
        #expect(try store.search("gard").map(\.id) == [title.id, tagged.id, body.id])
        try StoreFixture.execute(
            store, "INSERT INTO itemHeadSearch(itemHeadSearch, rank) VALUES ('integrity-check', 1)")
        #expect(try StoreFixture.count(store, "SELECT count(*) FROM grdb_migrations") == migrator.migrations.count)
    }

    /// Ids sharing their last four hex digits, so that the second takes its 5-digit code, and
    /// the codes they get.
    static let collidingIDs = [
        "0193a9d2-0000-7000-8000-00000000abcd", "0193a9d2-0000-7000-8000-00000001abcd",
        "0193a9d2-0000-7000-8000-000000000001",
    ]
    static let collidingCodes = [collidingIDs[0]: "abcd", collidingIDs[1]: "1abcd", collidingIDs[2]: "0001"]

    /// Makes a store at `path` as Quire left it after `migration`, holding a note for each of
    /// `collidingIDs` at rows 10, 20 and 30; `inspect` reads it before it is closed.
    static func makeOldStore(
        at path: String, upTo migration: String, inspect: (Database) throws -> Void = { _ in }
    ) throws {
        let queue = try DatabaseQueue(path: path)
        try AppDatabase.migrator(environment: .deterministic()).migrate(queue, upTo: migration)
        try queue.write { db in
            for (index, id) in collidingIDs.enumerated() {
                try db.execute(
                    sql: """
                        INSERT INTO item (rowNumber, id, kind, title, createdAt, updatedAt)
                        VALUES (?, ?, 'note', 'Old item', '2026-11-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z')
                        """, arguments: [10 * (index + 1), id])
            }
            try inspect(db)
        }
        try queue.close()
    }

    /// A store made before short ids existed (v2) gets one for every item on upgrade: the v3
    /// migration gives them on its own table, and the later ones carry them to the row.
    @Test func aStoreFromBeforeShortIDsGetsOneForEveryItem() throws {
        let directory = try StoreFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/quire.db"
        try Self.makeOldStore(at: path, upTo: "v2 sync events carry their facts in columns")
        let store = try AppDatabase.open(path: path, environment: .deterministic())
        #expect(try store.shortIDs(for: Self.collidingIDs) == Self.collidingCodes)
        #expect(try StoreFixture.count(store, "SELECT count(*) FROM itemCode WHERE code IS NULL") == 0)
        #expect(try StoreFixture.count(store, "SELECT count(*) FROM pragma_foreign_key_check") == 0)
    }

    /// A store made before short ids were keyed by row (v12, then v13 without the item's id):
    /// every item keeps the short id it had, under its own row number, and the codes of new items
    /// are chosen as before.
    @Test func shortIDsKeepTheirCodesWhenKeyedByRow() throws {
        let directory = try StoreFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/quire.db"
        let migrator = AppDatabase.migrator(environment: .deterministic())
        var before: [String: String] = [:]
        try Self.makeOldStore(at: path, upTo: "v11 short ids in one insert") { db in
            for row in try Row.fetchAll(db, sql: "SELECT itemId, code FROM itemCode") {
                before[row[0]] = row[1]
            }
        }
        #expect(before == Self.collidingCodes)
        var upgrades = 0
        let store = try AppDatabase.open(path: path, environment: .deterministic()) { upgrades += 1 }
        #expect(upgrades == 1)
        #expect(try store.shortIDs(for: Self.collidingIDs) == before)
        #expect(try StoreFixture.count(store, "SELECT count(*) FROM itemCode JOIN item USING (rowNumber)") == 3)
        // v13: a short id is kept by its row alone, with no copy of the item's id to index.
        #expect(
            try StoreFixture.count(
                store, "SELECT count(*) FROM pragma_table_info('itemCode') WHERE name NOT IN ('rowNumber', 'code')")
                == 0)
        let new = try store.create(NewItem(title: "New item"))
        #expect(try store.shortIDs(for: [new.id])[new.id] == String(new.id.suffix(4)).lowercased())
        let found = try store.searchWithShortIDs("item")
        #expect(found.items.count == 4)
        #expect(found.shortIDs == (try store.shortIDs(for: found.items.map(\.id))))
        #expect(try StoreFixture.count(store, "SELECT count(*) FROM pragma_foreign_key_check") == 0)
        #expect(try StoreFixture.count(store, "SELECT count(*) FROM grdb_migrations") == migrator.migrations.count)
    }
}
