import Foundation
import QuireCore
import QuireStore
import Testing

@testable import QuireSync

/// SPEC "End-to-end encryption": an item whose server copy does not open is marked unreadable
/// with the reason while the others sync on. The device knows which server version it could
/// not read, so its state hash still equals the server's: one altered item must not make every
/// round end in a resync (a download of the whole snapshot), nor a resync take the device's own
/// copy of it away. Real SQLite stores, a real server on loopback, its database altered under it.
@Suite(.serialized) struct SyncUnreadableVersionTests {
    /// Every round compares state hashes, as the app does every ten minutes.
    static var limits: SyncEngine.Limits {
        var limits = Device.testLimits
        limits.stateHashCheckInterval = 0
        return limits
    }

    /// The events of the device's log since `seq`, oldest first.
    static func events(of device: StoreDevice, after seq: Int64) throws -> [SyncEvent] {
        try device.database.recentSyncEvents(limit: 1_000).filter { $0.seq > seq }.reversed()
    }

    /// The newest event's seq: where the next round's events start.
    static func lastSeq(of device: StoreDevice) throws -> Int64 {
        try device.database.recentSyncEvents(limit: 1).first?.seq ?? 0
    }

    /// True when this device's state hash is the one the server sent last.
    static func hashesAgree(_ device: StoreDevice) throws -> Bool {
        let server = try device.engine.ledger.position().stateHash
        let local = try device.engine.ledger.quiescentStateHash()
        return server != nil && local == server
    }

    @Test func anItemThatDoesNotOpenStaysMarkedAndLaterRoundsCatchUpWithoutAResync() async throws {
        let (server, token) = try await SyncTestServer.running(user: "ann", .encrypted)
        defer { Task { await server.stop() } }
        let writer = try StoreDevice(server: server, token: token, limits: Self.limits)
        let reader = try StoreDevice(server: server, token: token, limits: Self.limits)

        // One item the reader holds already, one it has never seen, and others.
        let held = try writer.database.create(NewItem(title: "Held", body: "first words\n"))
        #expect(await writer.sync() == .caughtUp)
        #expect(await reader.sync() == .caughtUp)
        _ = try writer.database.update(held.id, fields: [.body: .string("second words\n")])
        let unseen = try writer.database.create(NewItem(title: "Unseen", body: "never read\n"))
        let others = try (0..<3).map { try writer.database.create(NewItem(title: "Other \($0)")) }
        #expect(await writer.sync() == .caughtUp)
        try SyncEncryptionTamperTests.flipACharacter(ofSealedBody: held.id, in: server.databasePath)
        try SyncEncryptionTamperTests.flipACharacter(ofSealedBody: unseen.id, in: server.databasePath)

        // The first round meets both altered versions and marks them.
        #expect(await reader.sync() == .caughtUp)
        for other in others { #expect(try reader.item(other.id)?.title == other.title, "the others synced on") }
        #expect(try reader.item(unseen.id) == nil, "an altered version is never taken in")
        #expect(try reader.item(held.id)?.body == "first words\n", "the readable copy it had stays")
        let snapshotsBefore = reader.transport.snapshotRequests

        // Later rounds end caught up at once: no resync, no snapshot read, hashes equal.
        for round in 2...3 {
            let before = try Self.lastSeq(of: reader)
            #expect(await reader.sync() == .caughtUp)
            let events = try Self.events(of: reader, after: before)
            #expect(!events.contains { $0.kind == .resync }, "round \(round) resynced: \(events.map(\.message))")
            #expect(reader.transport.snapshotRequests == snapshotsBefore, "round \(round) read the snapshot")
            #expect(reader.engine.recentRounds.last?.kind == .normal)
            #expect(try Self.hashesAgree(reader), "round \(round): the state hashes differ")
        }
        #expect(try reader.item(held.id)?.body == "first words\n", "the readable copy it had stays")
        #expect(try reader.item(held.id)?.deleted == false)
        let logged = try reader.database.recentSyncEvents(limit: 1_000).filter { $0.kind == .unreadable }
        #expect(logged.count == 2, "each version logged once: \(logged.map(\.message))")
        let marks = try reader.database.unreadableVersions()
        #expect(Set(marks.map(\.itemID)) == [held.id, unseen.id], "both stay marked: \(marks)")
        #expect(marks.allSatisfy { $0.reason.contains("body does not open") }, "\(marks)")
        let noRemote = SyncSettings(configPath: "/nonexistent/config", credentialsPath: "/nonexistent/credentials")
        let report = try SyncStatusReport.read(database: reader.database, settings: noRemote, now: Date())
        #expect(Set(report.unreadable.map(\.item)) == [held.id, unseen.id], "quire status shows them")

        // A resync (asked for, or after a server restore) meets the same versions: it records
        // them again, logs nothing new, keeps the held copy and ends caught up.
        let beforeResync = try Self.lastSeq(of: reader)
        #expect(await reader.engine.run(.resync) == .caughtUp)
        let resyncEvents = try Self.events(of: reader, after: beforeResync)
        #expect(!resyncEvents.contains { $0.kind == .unreadable }, "\(resyncEvents.map(\.message))")
        #expect(resyncEvents.filter { $0.kind == .resync }.count == 1, "\(resyncEvents.map(\.message))")
        #expect(try reader.item(held.id)?.body == "first words\n")
        #expect(try reader.database.unreadableVersions().count == 2)
        #expect(try Self.hashesAgree(reader))
        let snapshotsAfterResync = reader.transport.snapshotRequests

        // The writer, which holds both, writes their bodies again: the reader takes the readable
        // versions, the marks go, and the hashes agree without a resync.
        _ = try writer.database.update(held.id, fields: [.body: .string("third words\n")])
        _ = try writer.database.update(unseen.id, fields: [.body: .string("read at last\n")])
        #expect(await writer.sync() == .caughtUp)
        let before = try Self.lastSeq(of: reader)
        #expect(await reader.sync() == .caughtUp)
        let events = try Self.events(of: reader, after: before)
        #expect(!events.contains { $0.kind == .resync }, "resynced: \(events.map(\.message))")
        #expect(reader.transport.snapshotRequests == snapshotsAfterResync)
        #expect(try Self.hashesAgree(reader))
        #expect(try reader.item(held.id)?.body == "third words\n")
        #expect(try reader.item(unseen.id)?.body == "read at last\n")
        #expect(try reader.database.unreadableVersions().isEmpty, "the marks went")
    }
}
