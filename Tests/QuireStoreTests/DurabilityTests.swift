import Foundation
import GRDB
import Testing

@testable import QuireStore

/// What a person saved survives a power cut, in the app as in a command: the connection that
/// writes syncs the WAL at every commit (`synchronous = FULL`), whether the store is new or
/// reopened. GRDB's WAL set-up leaves a pool's writer at NORMAL, which may roll back the last
/// commits on a power cut or an OS crash.
@Suite struct DurabilityTests {
    private func synchronousLevel(of store: AppDatabase) throws -> Int? {
        try store.writer.writeWithoutTransaction { try Int.fetchOne($0, sql: "PRAGMA synchronous") }
    }

    @Test(arguments: [AppDatabase.Connections.pool, .single])
    func everyCommitIsSyncedOnANewAndAReopenedStore(_ connections: AppDatabase.Connections) throws {
        let directory = try StoreFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/quire.db"
        let new = try AppDatabase.open(path: path, environment: .deterministic(), connections: connections)
        #expect(try synchronousLevel(of: new) == 2)
        try new.close()
        let reopened = try AppDatabase.open(path: path, environment: .deterministic(), connections: connections)
        #expect(try synchronousLevel(of: reopened) == 2)
    }
}

/// A `.replayable` write (a pulled page, acknowledgements, the sync log) commits without its
/// own disk flush, and the connection is synced again for whatever writes next, also after a
/// write that failed.
@Suite struct ReplayableWriteTests {
    private func level(_ db: Database) throws -> Int? { try Int.fetchOne(db, sql: "PRAGMA synchronous") }

    @Test(arguments: [AppDatabase.Connections.pool, .single])
    func aReplayableWriteIsRelaxedForItsOwnCommitOnly(_ connections: AppDatabase.Connections) throws {
        let directory = try StoreFixture.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try AppDatabase.open(
            path: directory + "/quire.db", environment: .deterministic(), connections: connections)
        #expect(try store.write(.replayable) { try level($0) } == 1)
        #expect(try store.write { try level($0) } == 2)
        struct Refused: Error {}
        #expect(throws: StoreError.self) {
            try store.write(.replayable) { _ in throw Refused() }
        }
        #expect(try store.writer.writeWithoutTransaction { try level($0) } == 2)
        #expect(try store.write { try level($0) } == 2)
    }
}
