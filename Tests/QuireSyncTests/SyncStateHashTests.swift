import Foundation
import GRDB
import QuireCore
import QuireStore
import Testing

@testable import QuireSync

/// A device whose local copy silently drifted from the server's (its SQLite file changed
/// behind the store's back) finds out through the state hash and re-downloads what differs.
@Suite(.serialized) struct SyncStateHashTests {
    /// Every live item as the server's other devices must agree on it.
    func contents(_ device: StoreDevice) throws -> [String: String] {
        Dictionary(
            uniqueKeysWithValues: try device.database.items().map { item in
                (item.id, "\(item.fieldValues.sorted { $0.key < $1.key }) rev=\(item.rev) \(item.syncState)")
            })
    }

    /// Runs raw SQL on the device's database file, as a stray tool or a half-restored backup
    /// would: no outbox op, no history, no event.
    func tamper(_ device: StoreDevice, _ sql: String, _ arguments: StatementArguments) throws {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false
        let queue = try DatabaseQueue(path: device.database.path, configuration: configuration)
        try queue.write { db in try db.execute(sql: sql, arguments: arguments) }
        try queue.close()
    }

    @Test(arguments: AccountEncryption.allCases)
    func aDeviceWhoseCopyDriftedReDownloadsWhatDiffers(_ encryption: AccountEncryption) async throws {
        let (server, token) = try await SyncTestServer.running(user: "ann", encryption)
        defer { Task { await server.stop() } }
        let a = try StoreDevice(server: server, token: token)
        let b = try StoreDevice(server: server, token: token)
        let removed = try a.database.create(NewItem(title: "Removed behind the store's back", body: "one\n"))
        let rolledBack = try a.database.create(NewItem(title: "Rolled back", tags: ["home"]))
        let rewritten = try a.database.create(NewItem(title: "Rewritten in place", body: "as written\n"))
        let untouched = try a.database.create(NewItem(kind: .task, title: "Untouched"))
        #expect(await a.sync() == .caughtUp)
        try a.database.update(rolledBack.id, fields: [.title: .string("Rolled back, second version")])
        #expect(await a.sync() == .caughtUp)
        #expect(await b.sync() == .caughtUp)
        #expect(try contents(b) == contents(a), "b caught up")
        #expect(try b.item(rolledBack.id)?.rev == 2)

        // Behind the store's back: one row gone, one back at its first version (an older
        // revision), one with other text under the same revision, one with a revision the
        // server never gave.
        try tamper(b, "DELETE FROM item WHERE id = ?", [removed.id])
        try tamper(b, "UPDATE item SET title = 'Rolled back', rev = 1 WHERE id = ?", [rolledBack.id])
        try tamper(b, "UPDATE item SET body = 'not what the server has' WHERE id = ?", [rewritten.id])
        try tamper(b, "UPDATE item SET rev = 7 WHERE id = ?", [untouched.id])
        #expect(try b.item(removed.id) == nil)
        #expect(try contents(b) != contents(a))

        // Nothing to push and nothing new to pull: only the state hash can tell.
        #expect(await b.sync() == .caughtUp)
        #expect(try contents(b) == contents(a), "b holds exactly the server's items again")
        #expect(try b.item(removed.id)?.body == "one\n")
        #expect(try b.item(rolledBack.id)?.title == "Rolled back, second version")
        #expect(try b.item(rolledBack.id)?.rev == 2)
        #expect(try b.item(rewritten.id)?.body == "as written\n")
        #expect(try b.item(untouched.id)?.title == "Untouched")
        #expect(try b.item(untouched.id)?.rev == 1, "a revision the server never gave is taken back")
        #expect(try b.database.outboxCounts().waiting == 0, "re-downloading sends nothing back")
        #expect(try b.database.items().allSatisfy { $0.syncState == .synced })
        let events = try b.database.recentSyncEvents(limit: 50)
        #expect(
            events.contains { $0.kind == .resync && $0.message.contains("differs") },
            "the log says why the device re-downloaded")
        #expect(events.contains { $0.kind == .resync && $0.message.contains("reconciled") })

        // The server was never told anything wrong: a third device sees a's versions.
        let c = try StoreDevice(server: server, token: token)
        #expect(await c.sync() == .caughtUp)
        #expect(try contents(c) == contents(a))
        // And b, now identical, stays quiet: the next round needs no resync.
        let resyncsBefore = try b.database.recentSyncEvents(limit: 200).filter { $0.kind == .resync }.count
        #expect(await b.sync() == .caughtUp)
        #expect(try b.database.recentSyncEvents(limit: 200).filter { $0.kind == .resync }.count == resyncsBefore)
        try server.expectNoContentLeaks()
    }

    @Test(arguments: AccountEncryption.allCases)
    func theHashIsOnlyCheckedAsOftenAsTheLimitSays(_ encryption: AccountEncryption) async throws {
        let (server, token) = try await SyncTestServer.running(user: "ann", encryption)
        defer { Task { await server.stop() } }
        let a = try StoreDevice(server: server, token: token)
        let item = try a.database.create(NewItem(title: "Kept"))
        #expect(await a.sync() == .caughtUp)
        // A device that checks rarely, whose one check already ran in its first round.
        var limits = Device.testLimits
        limits.stateHashCheckInterval = 3_600
        let b = try StoreDevice(server: server, token: token, limits: limits)
        #expect(await b.sync() == .caughtUp)
        try tamper(b, "DELETE FROM item WHERE id = ?", [item.id])
        #expect(await b.sync() == .caughtUp)
        #expect(try b.item(item.id) == nil, "not checked again within the interval")
        #expect(try !b.database.recentSyncEvents(limit: 50).contains { $0.kind == .resync })
    }
}
