import Foundation
import GRDB
import Testing

@testable import QuireServer

/// A push the server answered "applied" is on the disk: its SQLite writer syncs every commit
/// (`synchronous = FULL`). GRDB's WAL set-up runs after `prepareDatabase` and leaves a pool's
/// writer at NORMAL, which may roll back acknowledged writes on a power cut or an OS crash.
@Suite struct ServerDurabilityTests {
    @Test func theSQLiteWriterSyncsEveryCommit() async throws {
        let folder = try ServerProcessTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try SQLiteStore(path: folder.appendingPathComponent("server.db").path)
        try await store.prepare()
        let level = try await store.pool.writeWithoutTransaction { try Int.fetchOne($0, sql: "PRAGMA synchronous") }
        #expect(level == 2)
    }
}
