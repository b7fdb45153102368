import Foundation
import GRDB
import Testing
@testable import QuireStore
import QuireCore

@Suite struct MigrationTests {
    @Test func anEmptyFileIsMigratedToTheFullSchema() throws {
        let directory = try StoreFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/quire.db"
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let store = try AppDatabase.open(path: path, environment: .deterministic())
        let tables = try store.writer.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type IN ('table', 'trigger') ORDER BY name")
        }
        for name in ["item", "itemVersion", "outbox", "syncMeta", "conflict", "syncEvent", "itemSearch",
                     "item_search_insert", "item_search_update", "item_search_delete"] {
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
        #expect(try StoreFixture.count(second, "SELECT count(*) FROM grdb_migrations") == 1)
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
            guard case .unusable(_, let reason) = error else { Issue.record("wrong error \(error)"); return }
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
}
