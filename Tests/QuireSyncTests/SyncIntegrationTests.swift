import Foundation
import QuireCore
import QuireProtocol
import QuireServer
import QuireStore
import Testing

@testable import QuireSync

/// Devices syncing through the real server on a loopback port.
///
/// Each device is the real sync engine (reconciler, ledger, HTTP transport) over an in-memory
/// local store; the server is the real application on its own SQLite file.
@Suite(.serialized) struct SyncIntegrationTests {
    /// A running server with one user, and `count` devices signed in as that user.
    func setUp(devices count: Int, _ encryption: AccountEncryption) async throws -> (SyncTestServer, [Device], String) {
        let (server, token) = try await SyncTestServer.running(user: "ann", encryption)
        let devices = (0..<count).map { Device("device \($0 + 1)", server: server, token: token) }
        return (server, devices, token)
    }

    /// Syncs every device in turn, twice, so that each has seen what the others pushed; then
    /// every device has opened every item, and the server holds no content it may not keep.
    func syncAll(_ devices: [Device], on server: SyncTestServer, sourceLocation: SourceLocation = #_sourceLocation)
        async throws
    {
        for _ in 0..<2 {
            for device in devices {
                let outcome = await device.sync()
                #expect(outcome == .caughtUp, "\(device.name): \(outcome)", sourceLocation: sourceLocation)
            }
        }
        for device in devices {
            #expect(device.unreadable.isEmpty, "\(device.name) opens every item", sourceLocation: sourceLocation)
        }
        try server.expectNoContentLeaks(sourceLocation: sourceLocation)
    }

    @Test(arguments: AccountEncryption.allCases)
    func offlineEditsOnEveryDeviceConvergeToIdenticalItems(_ encryption: AccountEncryption) async throws {
        let (server, devices, _) = try await setUp(devices: 3, encryption)
        defer { Task { await server.stop() } }
        let (a, b, c) = (devices[0], devices[1], devices[2])
        let shared = a.create("Plan the trip", body: "flights\nhotel\ncar\n", kind: .task, tags: ["travel"])
        try await syncAll(devices, on: server)

        // Everyone goes offline and edits.
        let fromA = a.create("Pack bags")
        let fromB = (0..<20).map { b.create("Idea \($0)", body: "line \($0)\n") }
        try a.update(shared, [.title: .string("Plan the summer trip")])
        try b.update(shared, [.body: .string("FLIGHTS\nhotel\ncar\n"), .tags: .strings(["travel", "summer"])])
        try c.update(shared, [.priority: .string("high"), .body: .string("flights\nhotel\ncar\ninsurance\n")])
        try c.update(fromB.isEmpty ? shared : shared, [.due: .string("2026-07-01")])
        try await syncAll(devices, on: server)

        #expect(a.snapshot == b.snapshot)
        #expect(b.snapshot == c.snapshot)
        let merged = try #require(c.item(shared))
        #expect(merged.title == "Plan the summer trip")
        #expect(merged.body == "FLIGHTS\nhotel\ncar\ninsurance\n")
        #expect(merged.tags == ["summer", "travel"])
        #expect(merged.priority == .high)
        #expect(merged.due == Day("2026-07-01"))
        #expect(c.item(fromA)?.title == "Pack bags")
        #expect(fromB.allSatisfy { a.item($0) != nil && c.item($0) != nil })
        for device in devices {
            #expect(device.storage.outbox.isEmpty, "\(device.name) has nothing left to send")
            #expect(
                device.storage.allItems.allSatisfy { $0.syncState == .synced },
                "\(device.name): every badge says synced")
        }
        #expect(b.storage.events.contains { $0.kind == .merged } || c.storage.events.contains { $0.kind == .merged })
    }

    @Test(arguments: AccountEncryption.allCases)
    func theSameFieldSetDifferentlyNeedsReviewWithAllThreeVersions(_ encryption: AccountEncryption) async throws {
        let (server, devices, _) = try await setUp(devices: 2, encryption)
        defer { Task { await server.stop() } }
        let (a, b) = (devices[0], devices[1])
        let id = a.create("Buy milk")
        try await syncAll(devices, on: server)
        try a.update(id, [.title: .string("Buy oat milk")])
        try b.update(id, [.title: .string("Buy soy milk")])
        #expect(await a.sync() == .caughtUp)
        #expect(await b.sync() == .caughtUp)

        let record = try #require(b.storage.conflicts.first)
        #expect(record.fields == [.title])
        #expect(record.base?.title == "Buy milk")
        #expect(record.local.title == "Buy soy milk")
        #expect(record.remote.title == "Buy oat milk")
        #expect(b.item(id)?.syncState == .needsReview)
        #expect(b.item(id)?.title == "Buy soy milk", "b keeps seeing its own version")

        // Resolving is a new local change that every device then gets.
        let resolved = try b.engine.ledger.resolve(id, keeping: .both)
        #expect(resolved?.title == "Buy soy milk")
        try await syncAll(devices, on: server)
        #expect(a.item(id)?.title == "Buy soy milk")
        #expect(a.snapshot == b.snapshot)
        #expect(b.storage.conflicts.isEmpty)
    }

    @Test(arguments: AccountEncryption.allCases)
    func sidesAndSingleFieldsChosenTogetherAreOneChange(_ encryption: AccountEncryption) async throws {
        let (server, devices, _) = try await setUp(devices: 2, encryption)
        defer { Task { await server.stop() } }
        let (a, b) = (devices[0], devices[1])
        let id = a.create("Plan", body: "one\n")
        try await syncAll(devices, on: server)
        try a.update(id, [.title: .string("Plan A"), .priority: .string("high")])
        try b.update(id, [.title: .string("Plan B"), .priority: .string("low")])
        #expect(await a.sync() == .caughtUp)
        #expect(await b.sync() == .caughtUp)
        #expect(b.storage.conflicts.first?.fields == [.title, .priority])
        let opsBefore = b.storage.outbox.count
        let historyBefore = b.storage.history.count

        // A value that makes no valid item is refused and the conflict stays as it was.
        #expect(throws: ValidationError.self) {
            try b.engine.ledger.resolve(id, keeping: .remote, setting: [.title: .string("")])
        }
        #expect(b.storage.conflicts.count == 1)
        #expect(b.storage.outbox.count == opsBefore)

        // Remote as a whole, but the local title: one op, one history version.
        let resolved = try #require(
            try b.engine.ledger.resolve(id, keeping: .remote, setting: [.title: .string("Plan B")]))
        #expect((resolved.title, resolved.priority) == ("Plan B", .high))
        #expect(b.storage.conflicts.isEmpty)
        #expect(b.storage.outbox.filter { $0.op.item == id && $0.isActive }.count == 1)
        #expect(b.storage.history.count == historyBefore + 1)
        try await syncAll(devices, on: server)
        #expect(a.item(id)?.title == "Plan B")
        #expect(a.item(id)?.priority == .high)
        #expect(a.snapshot == b.snapshot)
    }

    @Test(arguments: AccountEncryption.allCases)
    func anEditAgainstADeleteKeepsTheEditUntilThePersonDecides(_ encryption: AccountEncryption) async throws {
        let (server, devices, _) = try await setUp(devices: 2, encryption)
        defer { Task { await server.stop() } }
        let (a, b) = (devices[0], devices[1])
        let id = a.create("Draft", body: "first\n")
        try await syncAll(devices, on: server)
        try a.delete(id)
        try b.update(id, [.body: .string("first\nsecond\n")])
        #expect(await a.sync() == .caughtUp)
        #expect(await b.sync() == .caughtUp)

        #expect(b.item(id)?.deleted == false)
        #expect(b.item(id)?.body == "first\nsecond\n")
        #expect(b.item(id)?.syncState == .needsReview)
        // Restore with the edit: every device gets the item back, with the edit.
        _ = try b.engine.ledger.resolve(id, keeping: .local)
        try await syncAll(devices, on: server)
        #expect(a.item(id)?.deleted == false)
        #expect(a.item(id)?.body == "first\nsecond\n")
        #expect(a.snapshot == b.snapshot)
    }

    /// A project travels as a field of its own, merged as any other: one device moves the
    /// item to another project while the other retitles it, and both changes stay.
    @Test(arguments: AccountEncryption.allCases)
    func aProjectSyncsAndMergesAsAFieldOfItsOwn(_ encryption: AccountEncryption) async throws {
        let (server, devices, _) = try await setUp(devices: 2, encryption)
        defer { Task { await server.stop() } }
        let (a, b) = (devices[0], devices[1])
        let id = a.create("Mend the fence")
        try a.update(id, [.project: .string("home.garden")])
        try await syncAll(devices, on: server)
        #expect(b.item(id)?.project == "home.garden")
        try b.update(id, [.project: .string("work")])
        try a.update(id, [.title: .string("Mend the garden fence")])
        try await syncAll(devices, on: server)
        #expect(a.item(id)?.project == "work" && a.item(id)?.title == "Mend the garden fence")
        #expect(a.snapshot == b.snapshot)
        try a.update(id, [.project: .null])
        try await syncAll(devices, on: server)
        #expect(b.item(id)?.project == nil)
    }

    @Test(arguments: AccountEncryption.allCases)
    func aReplayedBatchAfterADroppedAnswerHasOneEffect(_ encryption: AccountEncryption) async throws {
        let (server, devices, _) = try await setUp(devices: 2, encryption)
        defer { Task { await server.stop() } }
        let (a, b) = (devices[0], devices[1])
        let id = a.create("Once", body: "only once\n")
        try a.update(id, [.pinned: .bool(true)])
        a.transport.fail(.dropAnswer)
        #expect(await a.engine.run(.normal) == .networkError("the connection was closed"))
        #expect(a.storage.outbox.map(\.state) == [.pending], "the op waits to be sent again")
        #expect(await a.sync() == .caughtUp)
        #expect(a.storage.outbox.isEmpty)
        #expect(await b.sync() == .caughtUp)
        #expect(b.storage.allItems.count == 1)
        #expect(b.item(id)?.rev == 1, "one write, not two")
        #expect(a.item(id)?.rev == 1)
        try server.expectNoContentLeaks()
    }

    @Test(arguments: AccountEncryption.allCases)
    func aRefusedTokenPausesSyncAndKeepsTheOutbox(_ encryption: AccountEncryption) async throws {
        let (server, devices, _) = try await setUp(devices: 1, encryption)
        defer { Task { await server.stop() } }
        let a = devices[0]
        let id = a.create("Secret plan")
        _ = try await server.admin { try await $0.revokeTokens(userName: "ann") }
        #expect(await a.sync() == .authRefused(status: 401))
        #expect(a.storage.outbox.map(\.state) == [.pending])
        #expect(a.item(id)?.syncState == .pending)
        #expect(a.storage.events.last?.kind == .auth)
    }

    @Test func rateLimitingAnswersWithRetryAfter() async throws {
        let server = try SyncTestServer()
        server.rateLimit = RateLimit(perSecond: 0.01, burst: 1)
        let token = try await server.addUser("ann")
        try await server.start()
        defer { Task { await server.stop() } }
        let a = Device("a", server: server, token: token)
        a.create("One")
        #expect(await a.sync() == .caughtUp)
        a.create("Two")
        let outcome = await a.engine.run(.normal)
        guard case .serverError(429, let retryAfter) = outcome else {
            Issue.record("expected 429, got \(outcome)")
            return
        }
        #expect((retryAfter ?? 0) >= 1, "the machine waits this long before trying again")
        #expect(a.storage.outbox.map(\.state) == [.pending])
        #expect(a.storage.events.last?.kind == .retry)
    }

    @Test(arguments: AccountEncryption.allCases)
    func aServerRestoredFromAnOlderBackupGetsBackEverythingItLost(_ encryption: AccountEncryption) async throws {
        let (server, devices, _) = try await setUp(devices: 2, encryption)
        let (a, b) = (devices[0], devices[1])
        let early = a.create("Early note", body: "kept in the backup\n")
        try await syncAll(devices, on: server)
        await server.stop()
        try server.backUp(to: "backup.db")
        try await server.start()

        // Work the backup never saw: new items on both devices, an edit and a delete.
        let late = a.create("Late note")
        let fromB = b.create("Written on b")
        try b.update(early, [.title: .string("Early note, edited")])
        let doomed = a.create("Short-lived")
        try await syncAll(devices, on: server)
        try a.delete(doomed)
        try await syncAll(devices, on: server)

        await server.stop()
        try server.restore(from: "backup.db")
        _ = try await server.admin { try await $0.renewEpoch() }
        try await server.start()
        defer { Task { await server.stop() } }
        try await syncAll(devices, on: server)

        // A new device pulls everything from the server: nothing was lost.
        let token = try await server.admin { try await $0.addToken(userName: "ann") }
        let fresh = Device("fresh", server: server, token: token)
        #expect(await fresh.sync() == .caughtUp)
        #expect(fresh.item(late)?.title == "Late note")
        #expect(fresh.item(fromB)?.title == "Written on b")
        #expect(fresh.item(early)?.title == "Early note, edited")
        #expect(fresh.item(doomed) == nil || fresh.item(doomed)?.deleted == true)
        #expect(a.snapshot == b.snapshot)
        #expect(a.storage.events.contains { $0.kind == .resync })
    }

    @Test(arguments: AccountEncryption.allCases)
    func aDeadLetterDoesNotBlockOtherItems(_ encryption: AccountEncryption) async throws {
        let (server, devices, _) = try await setUp(devices: 2, encryption)
        defer { Task { await server.stop() } }
        let (a, b) = (devices[0], devices[1])
        // An item the server has never heard of, edited as if it had: the server refuses it.
        let ghost = a.ids.next()
        let now = Date()
        try a.storage.write { tx in
            let item = Item(id: ghost, title: "Ghost", createdAt: now, rev: 3, syncState: .synced)
            try tx.save(LocalItem(id: ghost, item: item), over: LocalItem(id: ghost))
        }
        try a.update(ghost, [.title: .string("Ghost, edited")])
        let real = a.create("Real item")
        #expect(await a.sync() == .caughtUp)

        let dead = try #require(a.storage.outbox.first)
        #expect(dead.state == .rejected)
        #expect(dead.lastError?.contains("does not exist") == true)
        #expect(a.item(ghost)?.syncState == .error)
        #expect(a.item(real)?.syncState == .synced)
        #expect(await b.sync() == .caughtUp)
        #expect(b.item(real)?.title == "Real item")
        #expect(a.storage.events.contains { $0.kind == .deadLetter })
        try server.expectNoContentLeaks()
    }

    @Test(arguments: AccountEncryption.allCases)
    func anIncrementalRoundCarriesLittleBeyondTheValues(_ encryption: AccountEncryption) async throws {
        let (server, devices, _) = try await setUp(devices: 1, encryption)
        defer { Task { await server.stop() } }
        let a = devices[0]
        let id = a.create("Bytes")
        #expect(await a.sync() == .caughtUp)
        try a.update(id, [.pinned: .bool(true)])
        #expect(await a.engine.run(.normal) == .caughtUp)
        let report = try #require(a.engine.recentRounds.last)
        #expect(report.opsPushed == 1)
        #expect(report.exchanges == 1, "one request pushes the op and pulls its echo")
        try server.expectNoContentLeaks()
    }
}
