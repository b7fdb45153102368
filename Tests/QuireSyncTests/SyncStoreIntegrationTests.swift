import Foundation
import GRDB
import QuireCore
import QuireProtocol
import QuireStore
import Testing

@testable import QuireSync

/// A device on the real local store: a temporary SQLite database, edited through
/// `AppDatabase` as the CLI and the TUI do, synced through `AppDatabase.syncStorage()`.
final class StoreDevice: @unchecked Sendable {
    let database: AppDatabase
    let engine: SyncEngine
    let transport: FaultyTransport
    /// What the engine talks to: `transport`, behind the sealing of an encrypted account.
    let connection: any SyncTransport

    init(
        server: SyncTestServer, token: String, limits: SyncEngine.Limits = Device.testLimits,
        environment: StoreEnvironment = .live
    ) throws {
        database = try AppDatabase.temporary(environment: environment)
        let transport = FaultyTransport(
            base: HTTPSyncTransport(
                baseURL: server.baseURL, token: token, timeout: SyncTestServer.clientTimeout, now: { Date() }))
        self.transport = transport
        let ledger = SyncLedger(storage: database.syncStorage(), now: environment.now, newID: environment.newID)
        let connection = Device.sealing(transport, keys: server.keys)
        self.connection = connection
        engine = SyncEngine(
            ledger: ledger, limits: limits,
            lock: SyncLock(path: SyncLock.path(forDatabase: database.path), now: environment.now),
            connect: { connection })
    }

    @discardableResult
    func sync() async -> SyncMachine.RoundOutcome { await engine.runToCompletion() }

    func item(_ id: String) throws -> Item? { try database.item(id) }
}

@Suite(.serialized) struct SyncStoreIntegrationTests {
    func setUp(devices count: Int, _ encryption: AccountEncryption = .plain) async throws -> (
        SyncTestServer, [StoreDevice]
    ) {
        let (server, token) = try await SyncTestServer.running(user: "ann", encryption)
        return (server, try (0..<count).map { _ in try StoreDevice(server: server, token: token) })
    }

    /// Two devices sync "Buy milk"; A renames it "Buy oat milk", B "Buy soy milk", and both
    /// sync: B holds the conflict.
    func titleConflict() async throws -> (SyncTestServer, StoreDevice, Item) {
        let (server, devices) = try await setUp(devices: 2)
        let (a, b) = (devices[0], devices[1])
        let item = try a.database.create(NewItem(title: "Buy milk"))
        #expect(await a.sync() == .caughtUp)
        #expect(await b.sync() == .caughtUp)
        try a.database.update(item.id, fields: [.title: .string("Buy oat milk")])
        try b.database.update(item.id, fields: [.title: .string("Buy soy milk")])
        #expect(await a.sync() == .caughtUp)
        #expect(await b.sync() == .caughtUp)
        return (server, b, item)
    }

    /// The server takes an item's creation time from its id and never receives `createdAt`; a
    /// device whose ids run ahead of its clock (a full millisecond's counter, a clock stepped
    /// back) and an import of an old entry without an id still show the time every device shows.
    @Test(arguments: AccountEncryption.allCases)
    func everyDeviceShowsTheSameCreationTime(_ encryption: AccountEncryption) async throws {
        let (server, token) = try await SyncTestServer.running(user: "ann", encryption)
        defer { Task { await server.stop() } }
        let live = StoreEnvironment.live
        let ahead = StoreEnvironment(now: live.now, newID: { live.newID($0.addingTimeInterval(0.0042)) })
        let a = try StoreDevice(server: server, token: token, environment: ahead)
        let b = try StoreDevice(server: server, token: token)
        let note = try a.database.create(NewItem(title: "Made ahead"))
        let old = Date(timeIntervalSince1970: 1_735_689_600.123)
        _ = try a.database.importItems([ImportEntry(title: "Imported", createdAt: old)])
        let imported = try #require(try a.database.items().first { $0.title == "Imported" })
        #expect(await a.sync() == .caughtUp)
        #expect(await b.sync() == .caughtUp)
        #expect(await a.sync() == .caughtUp)
        for id in [note.id, imported.id] {
            let onA = try #require(try a.item(id))
            #expect(try b.item(id)?.createdAt == onA.createdAt)
            #expect(onA.createdAt == UUIDv7Generator.creationTime(ofID: id))
        }
        #expect(try b.item(imported.id)?.createdAt == StoreTime.truncated(old))
    }

    /// An imported entry whose id is a UUID of another version names no time: the server reads
    /// its own clock for it. Its answer carries that time, and the device that made the item
    /// takes it, as it takes the server's other times, so both devices show one creation time.
    @Test(arguments: AccountEncryption.allCases)
    func aCreateWhoseIDNamesNoTimeTakesTheServersCreationTime(_ encryption: AccountEncryption) async throws {
        let (server, devices) = try await setUp(devices: 2, encryption)
        defer { Task { await server.stop() } }
        let (a, b) = (devices[0], devices[1])
        let id = "3f2a9c4e-1b7d-4e8a-9c3b-5d6e7f8a9b0c"
        let old = Date(timeIntervalSince1970: 1_735_689_600.123)
        _ = try a.database.importItems([ImportEntry(id: id, title: "From elsewhere", createdAt: old)])
        #expect(await a.sync() == .caughtUp)
        #expect(await b.sync() == .caughtUp)
        let onB = try #require(try b.item(id))
        #expect(onB.createdAt != StoreTime.truncated(old))
        #expect(try a.item(id)?.createdAt == onB.createdAt)
        #expect(try a.database.history(of: id).first?.item.createdAt == onB.createdAt)
        // A later edit keeps it.
        try a.database.update(id, fields: [.title: .string("From elsewhere, edited")])
        #expect(await a.sync() == .caughtUp)
        #expect(await b.sync() == .caughtUp)
        #expect(try a.item(id)?.createdAt == onB.createdAt)
        #expect(try b.item(id)?.createdAt == onB.createdAt)
    }

    @Test func twoDevicesOnTheRealStoreConvergeAndShowTrueBadges() async throws {
        let (server, devices) = try await setUp(devices: 2)
        defer { Task { await server.stop() } }
        let (a, b) = (devices[0], devices[1])
        let note = try a.database.create(NewItem(title: "Groceries", body: "milk\nbread\n", tags: ["home"]))
        let task = try b.database.create(NewItem(kind: .task, title: "Call Ann"))
        #expect(try a.item(note.id)?.syncState == .pending)
        #expect(await a.sync() == .caughtUp)
        #expect(await b.sync() == .caughtUp)
        #expect(await a.sync() == .caughtUp)

        #expect(try a.item(task.id)?.title == "Call Ann")
        #expect(try b.item(note.id)?.body == "milk\nbread\n")
        #expect(try a.item(note.id)?.syncState == .synced)
        #expect(try a.database.outboxCounts().waiting == 0)

        // Edits of different fields on both sides merge without asking.
        try a.database.update(note.id, fields: [.body: .string("milk\nbread\neggs\n")])
        try b.database.update(note.id, fields: [.title: .string("Groceries for Sunday")])
        try b.database.setDone([task.id], true)
        #expect(await a.sync() == .caughtUp)
        #expect(await b.sync() == .caughtUp)
        #expect(await a.sync() == .caughtUp)
        for device in devices {
            let merged = try #require(try device.item(note.id))
            #expect(merged.title == "Groceries for Sunday")
            #expect(merged.body == "milk\nbread\neggs\n")
            #expect(merged.syncState == .synced)
            #expect(try device.item(task.id)?.done == true)
        }
        let history = try b.database.history(of: note.id)
        #expect(history.contains { $0.origin == .merge } || history.contains { $0.origin == .remote })
        #expect(try a.database.recentSyncEvents(limit: 50).contains { $0.kind == .pushOK })
    }

    @Test func pulledItemsAndEditsAreWrittenInBatchesAndTheSearchIndexFollows() async throws {
        let (server, devices) = try await setUp(devices: 2)
        defer { Task { await server.stop() } }
        let (a, b) = (devices[0], devices[1])
        // More than one multi-row statement's worth, with text that needs escaping.
        let made = try a.database.importItems(
            (0..<450).map {
                ImportEntry(title: "Seedling \($0)", body: "bed \"\($0 % 7)\"\nrow\t\($0)\n", tags: ["garden"])
            })
        #expect(made.created == 450)
        #expect(await a.sync() == .caughtUp)
        #expect(await b.sync() == .caughtUp)
        #expect(try b.database.count(matching: .live) == 450)
        #expect(try b.database.search("seedling", limit: 1000).count == 450)

        // Edits of items b already has: the rows are rewritten in place, the index follows.
        let renamed = try a.database.items(limit: 300)
        for item in renamed {
            try a.database.update(item.id, fields: [.title: .string("Sapling " + item.title.dropFirst(9))])
        }
        #expect(await a.sync() == .caughtUp)
        #expect(await b.sync() == .caughtUp)
        #expect(try b.database.search("sapling", limit: 1000).count == 300)
        #expect(try b.database.search("seedling", limit: 1000).count == 150)
        for item in renamed.prefix(20) {
            let copy = try #require(try b.item(item.id))
            #expect(copy.title == "Sapling " + item.title.dropFirst(9))
            #expect(copy.body == item.body)
            #expect(copy.syncState == .synced)
        }
        let queue = try DatabaseQueue(path: b.database.path)
        try await queue.write { db in
            try db.execute(sql: "INSERT INTO itemSearch(itemSearch, rank) VALUES ('integrity-check', 1)")
            try db.execute(sql: "INSERT INTO itemHeadSearch(itemHeadSearch, rank) VALUES ('integrity-check', 1)")
        }
        #expect(try b.database.history(of: renamed[0].id).count == 2, "pulled, then pulled again edited")
    }

    @Test func aConflictIsKeptInTheStoreWithAllThreeVersionsAndResolves() async throws {
        let (server, b, item) = try await titleConflict()
        defer { Task { await server.stop() } }

        let conflicts = try b.database.conflicts()
        #expect(conflicts.count == 1)
        #expect(conflicts.first?.fields == [.title])
        #expect(conflicts.first?.base?.title == "Buy milk")
        #expect(conflicts.first?.local.title == "Buy soy milk")
        #expect(conflicts.first?.remote.title == "Buy oat milk")
        #expect(try b.item(item.id)?.syncState == .needsReview)

        let resolved = try b.engine.ledger.resolve(item.id, keeping: .remote)
        #expect(resolved?.title == "Buy oat milk")
        #expect(try b.database.conflicts().isEmpty)
        #expect(try b.item(item.id)?.syncState == .synced)
        #expect(try b.database.history(of: item.id).first?.origin == .resolve)
    }

    @Test func theResolvingDevicesHistoryKeepsTheOtherSideSoEitherCanComeBack() async throws {
        let (server, b, item) = try await titleConflict()
        defer { Task { await server.stop() } }
        #expect(try b.database.conflicts().count == 1)

        // While the item waits for review, the newest entry is still what it shows.
        let waiting = try b.database.history(of: item.id)
        #expect(waiting.first?.item.title == "Buy soy milk")
        #expect(waiting.contains { $0.origin == .remote && $0.item.title == "Buy oat milk" })

        _ = try b.engine.ledger.resolve(item.id, keeping: .local)
        let history = try b.database.history(of: item.id)
        #expect(history.first?.origin == .resolve)
        #expect(history.first?.item.title == "Buy soy milk")
        let theirs = try #require(history.first { $0.origin == .remote && $0.item.title == "Buy oat milk" })
        #expect(theirs.item.syncState == .synced)
    }

    @Test(arguments: AccountEncryption.allCases)
    func aRoundKilledAfterMarkingItsBatchLosesAndDuplicatesNothing(_ encryption: AccountEncryption) async throws {
        let (server, devices) = try await setUp(devices: 2, encryption)
        defer { Task { await server.stop() } }
        let (a, b) = (devices[0], devices[1])
        let first = try a.database.create(NewItem(title: "First"))
        // A round that dies right after its request reached the server.
        let batch = try a.engine.ledger.takeBatch(limit: 100)
        #expect(try a.item(first.id)?.syncState == .syncing)
        let position = try a.engine.ledger.position()
        _ = try await a.connection.sync(SyncRequest(device: position.deviceID, cursor: position.cursor, ops: batch))
        // The next process starts over: the op goes again under its own id.
        #expect(await a.sync() == .caughtUp)
        #expect(try a.item(first.id)?.syncState == .synced)
        #expect(try a.item(first.id)?.rev == 1)
        #expect(await b.sync() == .caughtUp)
        #expect(try b.database.items().count == 1)
        #expect(try b.item(first.id)?.rev == 1)
        try server.expectNoContentLeaks()
    }

    @Test(arguments: AccountEncryption.allCases)
    func anEditMadeAfterADroppedAnswerIsNotLost(_ encryption: AccountEncryption) async throws {
        let (server, devices) = try await setUp(devices: 2, encryption)
        defer { Task { await server.stop() } }
        let (a, b) = (devices[0], devices[1])
        let item = try a.database.create(NewItem(title: "Draft"))
        #expect(await a.sync() == .caughtUp)
        try a.database.update(item.id, fields: [.title: .string("Draft two")])
        a.transport.fail(.dropAnswer)
        #expect(await a.engine.run(.normal) == .networkError("the connection was closed"))
        // An edit while the sent op waits to go again: it must not fold into that op, which
        // the server already applied and will answer as it did the first time.
        try a.database.update(item.id, fields: [.pinned: .bool(true)])
        #expect(await a.sync() == .caughtUp)
        #expect(await b.sync() == .caughtUp)
        #expect(try b.item(item.id)?.pinned == true)
        #expect(try a.database.outboxCounts().waiting == 0)
        #expect(try b.item(item.id)?.title == "Draft two")
        try server.expectNoContentLeaks()
    }
}
