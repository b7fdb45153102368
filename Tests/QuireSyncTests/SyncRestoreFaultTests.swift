import Foundation
import GRDB
import QuireCore
import QuireProtocol
import QuireServer
import QuireStore
import QuireTestSupport
import Testing

@testable import QuireSync

/// The cases of a server restore combined with the two faults that lost acknowledged changes
/// (issue 28): a push that fails once (the server answers 503 while the test holds its
/// database's write lock) and a lost answer (a loopback proxy closes the connection after
/// reading the server's whole answer). Each runs the real server on a loopback port and two
/// devices, each with its own home: the real store on an SQLite file and the real engine
/// talking HTTP through its own proxy. Every case ends with every device holding the server's
/// items byte for byte, nothing waiting and nothing to review.
@Suite(.serialized) struct SyncRestoreFaultTests {
    @Test(arguments: AccountEncryption.allCases)
    func cUpdateAnAcknowledgedEditSurvivesAPushFailingOnce(_ encryption: AccountEncryption) async throws {
        try await RestoreFaultCase(encryption).cUpdateAnAcknowledgedEditSurvivesAPushFailingOnce()
    }

    @Test(arguments: AccountEncryption.allCases)
    func cCreateAnAcknowledgedItemSurvivesAPushFailingOnce(_ encryption: AccountEncryption) async throws {
        try await RestoreFaultCase(encryption).cCreateAnAcknowledgedItemSurvivesAPushFailingOnce()
    }

    @Test(arguments: AccountEncryption.allCases)
    func cDeleteAnAcknowledgedDeleteSurvivesAPushFailingOnce(_ encryption: AccountEncryption) async throws {
        try await RestoreFaultCase(encryption).cDeleteAnAcknowledgedDeleteSurvivesAPushFailingOnce()
    }

    @Test(arguments: AccountEncryption.allCases)
    func dAnAuthorWhoseAnswersWereLostMergesOverTheVersionItMade(_ encryption: AccountEncryption) async throws {
        try await RestoreFaultCase(encryption).dAnAuthorWhoseAnswersWereLostMergesOverTheVersionItMade()
    }

    @Test(arguments: AccountEncryption.allCases)
    func bBodyADeviceThatNeverEditedAnItemIsNotAskedToReviewIt(_ encryption: AccountEncryption) async throws {
        try await RestoreFaultCase(encryption).bBodyADeviceThatNeverEditedAnItemIsNotAskedToReviewIt()
    }

    @Test(arguments: AccountEncryption.allCases)
    func bDeleteADeviceThatNeverEditedAnItemTakesItsDelete(_ encryption: AccountEncryption) async throws {
        try await RestoreFaultCase(encryption).bDeleteADeviceThatNeverEditedAnItemTakesItsDelete()
    }

    @Test(arguments: AccountEncryption.allCases)
    func aTombstoneARestoredItemComesBackAsItWasDeleted(_ encryption: AccountEncryption) async throws {
        try await RestoreFaultCase(encryption).aTombstoneARestoredItemComesBackAsItWasDeleted()
    }

    @Test(arguments: AccountEncryption.allCases)
    func aTombstoneAnEditOfARevivalWhoseDeleteAnswerWasLostSurvives(_ encryption: AccountEncryption) async throws {
        try await RestoreFaultCase(encryption).aTombstoneAnEditOfARevivalWhoseDeleteAnswerWasLostSurvives()
    }

    @Test(arguments: AccountEncryption.allCases)
    func aTombstoneARevivalTheServerHasTheContentOfIsNamedAllTheSame(_ encryption: AccountEncryption) async throws {
        try await RestoreFaultCase(encryption).aTombstoneARevivalTheServerHasTheContentOfIsNamedAllTheSame()
    }

    @Test(arguments: AccountEncryption.allCases)
    func aReviewWaitsForTheVersionARestoreLost(_ encryption: AccountEncryption) async throws {
        try await RestoreFaultCase(encryption).aReviewWaitsForTheVersionARestoreLost()
    }

    @Test(arguments: AccountEncryption.allCases)
    func aReviewOfAnItemARestoreLostKeepsItsUnsentLines(_ encryption: AccountEncryption) async throws {
        try await RestoreFaultCase(encryption).aReviewOfAnItemARestoreLostKeepsItsUnsentLines()
    }
}

/// One case of `SyncRestoreFaultTests`: the server, its account (plain or encrypted) and the
/// two devices, with the steps the cases share.
struct RestoreFaultCase {
    let server: SyncTestServer
    let token: String
    let a: HomeDevice
    let b: HomeDevice

    init(_ encryption: AccountEncryption) async throws {
        // A push held up by the test's write lock fails after the server's busy timeout: 2 s
        // here, not the 10 s a server waits by default, which each such case sat out.
        (server, token) = try await SyncTestServer.running(user: "ann", encryption, busyTimeout: 2)
        a = try HomeDevice("A", server: server, token: token)
        b = try HomeDevice("B", server: server, token: token)
    }

    func sync(_ device: HomeDevice, sourceLocation: SourceLocation = #_sourceLocation) async {
        let outcome = await device.sync()
        #expect(outcome == .caughtUp, "\(device.name): \(outcome)", sourceLocation: sourceLocation)
    }

    func backUp(to name: String = "backup.db") async throws {
        await server.stop()
        try server.backUp(to: name)
        try await server.start()
    }

    /// `quire-server restore` of the backup: installs it and renews the epoch.
    func restore(from name: String = "backup.db") async throws {
        await server.stop()
        try server.restore(from: name)
        _ = try await server.admin { try await $0.renewEpoch() }
        try await server.start()
    }

    /// A syncs while the test holds the server database's write lock: pulls and the snapshot
    /// are read, the push waits out the server's busy timeout and is answered 503.
    func syncWithPushFailingOnce(_ device: HomeDevice) async throws {
        let lock = try WriteLockHolder(databasePath: server.databasePath)
        let outcome = await device.sync()
        lock.release()
        guard case .serverError = outcome else {
            Issue.record("\(device.name)'s push was to fail once with 503: \(outcome)")
            return
        }
        #expect(try device.database.outboxCounts().pending > 0, "the re-send waits")
    }

    /// The device's push reaches the server, which applies it; the answer is lost.
    func syncWithAnswerLost(_ device: HomeDevice) async throws {
        device.proxy.dropAnswers(1)
        let dropped = device.proxy.droppedAnswers
        let outcome = await device.sync()
        #expect(outcome != .caughtUp, "\(device.name): the answer never arrived")
        #expect(device.proxy.droppedAnswers == dropped + 1)
    }

    /// Both devices sync in turn until a whole pass changes nothing (at most five passes).
    func syncUntilQuiet() async throws {
        for _ in 0..<5 {
            let before = try [a.copy(), b.copy()]
            for device in [a, b] { await sync(device) }
            if try [a.copy(), b.copy()] == before { return }
        }
        Issue.record("the devices never went quiet")
    }

    /// Every device holds exactly what a fresh device downloads from the server, byte for byte
    /// (tombstones too: a fresh device reads them as the feed has them), and nothing waits or
    /// needs review on any device.
    func expectEveryoneHoldsTheServersCopy(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let token = try await server.admin { try await $0.addToken(userName: "ann") }
        let reference = try HomeDevice("reference", server: server, token: token)
        #expect(await reference.sync() == .caughtUp, sourceLocation: sourceLocation)
        let server = try reference.copy()
        for device in [a, b] {
            let copy = try device.copy()
            for (id, item) in server where copy[id] != item {
                Issue.record(
                    "\(device.name) holds \(copy[id] ?? "nothing") of \(id), the server \(item)",
                    sourceLocation: sourceLocation)
            }
            let conflicts = try device.database.conflicts()
            let reasons = try device.database.recentSyncEvents().filter { $0.kind == .conflict }.map(\.message)
            #expect(conflicts.isEmpty, "\(device.name) needs review: \(reasons)", sourceLocation: sourceLocation)
            #expect(
                try device.database.outbox(state: nil).isEmpty, "\(device.name): nothing waits",
                sourceLocation: sourceLocation)
            #expect(
                try device.database.recentSyncEvents().allSatisfy { $0.kind != .unreadable },
                "\(device.name) opens every item", sourceLocation: sourceLocation)
        }
        try self.server.expectNoContentLeaks(sourceLocation: sourceLocation)
    }

    func expectBody(_ id: String, _ body: String, done: Bool? = nil, sourceLocation: SourceLocation = #_sourceLocation)
        async throws
    {
        for device in [a, b] {
            let item = try #require(try device.database.item(id), sourceLocation: sourceLocation)
            #expect(item.body == body, "\(device.name)", sourceLocation: sourceLocation)
            #expect(!item.deleted, "\(device.name)", sourceLocation: sourceLocation)
            if let done { #expect(item.done == done, "\(device.name)", sourceLocation: sourceLocation) }
        }
        try await expectEveryoneHoldsTheServersCopy(sourceLocation: sourceLocation)
    }

    func expectDeleted(_ id: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        for device in [a, b] {
            #expect(try device.database.item(id)?.deleted == true, "\(device.name)", sourceLocation: sourceLocation)
        }
        try await expectEveryoneHoldsTheServersCopy(sourceLocation: sourceLocation)
    }

    /// A adds X (`line1`) and both devices sync.
    func addX(kind: ItemKind = .note) async throws -> String {
        let x = try a.add("X", body: "line1\n", kind: kind)
        await sync(a)
        await sync(b)
        return x
    }

    /// The restore, then A's re-send fails once while B re-sends what it holds first, then both
    /// sync until quiet.
    func restoreWhileAPushFailsOnce() async throws {
        try await restore()
        try await syncWithPushFailingOnce(a)
        await sync(b)
        try await syncUntilQuiet()
    }

    // MARK: - C: the author's re-send fails once, another device re-sends first

    func cUpdateAnAcknowledgedEditSurvivesAPushFailingOnce() async throws {
        defer { Task { await server.stop() } }
        let x = try await addX()
        try await backUp()
        try a.edit(x, body: "line1\nline2\n")
        await sync(a)
        await sync(b)
        try a.edit(x, body: "line1\nline2\nline3\n")
        await sync(a)
        #expect(try a.database.outbox(state: nil).isEmpty, "acknowledged")

        try await restoreWhileAPushFailsOnce()
        try await expectBody(x, "line1\nline2\nline3\n")
    }

    /// The backup lacks X; A adds it (both sync) and edits it (acknowledged).
    func cCreateSteps() async throws -> String {
        try await backUp()
        let x = try await addX()
        try a.edit(x, body: "line1\nline2\n")
        await sync(a)
        return x
    }

    func cCreateAnAcknowledgedItemSurvivesAPushFailingOnce() async throws {
        defer { Task { await server.stop() } }
        let x = try await cCreateSteps()
        try await restoreWhileAPushFailsOnce()
        try await expectBody(x, "line1\nline2\n")
    }

    func cDeleteAnAcknowledgedDeleteSurvivesAPushFailingOnce() async throws {
        defer { Task { await server.stop() } }
        let x = try await cCreateSteps()
        _ = try a.database.delete([x])
        await sync(a)
        #expect(try a.database.outbox(state: nil).isEmpty, "acknowledged")

        try await restoreWhileAPushFailsOnce()
        try await expectDeleted(x)
    }

    // MARK: - D: the author never heard its versions acknowledged

    func dAnAuthorWhoseAnswersWereLostMergesOverTheVersionItMade() async throws {
        defer { Task { await server.stop() } }
        await sync(b)
        try await backUp()
        let x = try a.add("X", body: "line1\n", kind: .task)
        try await syncWithAnswerLost(a)
        _ = try a.database.setDone([x], true)
        try await syncWithAnswerLost(a)
        await sync(b)
        #expect(try b.database.item(x)?.done == true, "B holds X, done")
        try a.edit(x, body: "line1\nline2\n")

        try await restore()
        await sync(b)
        try await syncUntilQuiet()

        try await expectBody(x, "line1\nline2\n", done: true)
    }

    // MARK: - B: a device holding a version whose answer its author lost

    /// After the backup, A's edit (`line2`) is applied but its answer lost; B pulls it.
    func bSteps() async throws -> String {
        let x = try await addX()
        try await backUp()
        try a.edit(x, body: "line1\nline2\n")
        try await syncWithAnswerLost(a)
        await sync(b)
        #expect(try b.database.item(x)?.body == "line1\nline2\n", "B holds the version A never heard of")
        return x
    }

    func bBodyADeviceThatNeverEditedAnItemIsNotAskedToReviewIt() async throws {
        defer { Task { await server.stop() } }
        let x = try await bSteps()
        try await restore()
        try a.edit(x, body: "line1\nline2\nline3\n")
        await sync(a)
        await sync(b)
        await sync(a)
        try await syncUntilQuiet()

        try await expectBody(x, "line1\nline2\nline3\n")
    }

    func bDeleteADeviceThatNeverEditedAnItemTakesItsDelete() async throws {
        defer { Task { await server.stop() } }
        let x = try await bSteps()
        try await restore()
        _ = try a.database.delete([x])
        await sync(a)
        await sync(b)
        await sync(a)
        try await syncUntilQuiet()

        try await expectDeleted(x)
    }

    // MARK: - A: a re-sent delete keeps what it deletes

    func aTombstoneARestoredItemComesBackAsItWasDeleted() async throws {
        defer { Task { await server.stop() } }
        let x = try await addX()
        try await backUp()
        try a.edit(x, body: "line1\nline2\n")
        await sync(a)
        _ = try a.database.delete([x])
        await sync(a)

        try await restore()
        await sync(a)
        await sync(b)
        _ = try a.database.restore([x])
        await sync(a)
        await sync(b)
        try await syncUntilQuiet()

        try await expectBody(x, "line1\nline2\n")
    }

    /// Found by the simulation (seed 125): A deletes X and never hears that the server did, then
    /// restores it from the trash and edits it. Its revival meets the server's tombstone; the
    /// edit folded into it must survive the merge with that tombstone.
    func aTombstoneAnEditOfARevivalWhoseDeleteAnswerWasLostSurvives() async throws {
        defer { Task { await server.stop() } }
        let x = try await addX()
        _ = try a.database.delete([x])
        try await syncWithAnswerLost(a)
        _ = try a.database.restore([x])
        try a.edit(x, body: "line1\nline2\n")
        await sync(a)
        await sync(b)
        try await syncUntilQuiet()

        try await expectBody(x, "line1\nline2\n")
    }

    /// Found by the simulation (seed 1258): A deletes X and brings it back (both acknowledged);
    /// B holds the delete. A restore takes the server back to X as it was before the delete: A's
    /// copy has that content, and its re-send must still name its version, so that after a
    /// second restore (from a backup taken since) B finds its delete held and does not send it
    /// again over A's revival.
    func aTombstoneARevivalTheServerHasTheContentOfIsNamedAllTheSame() async throws {
        defer { Task { await server.stop() } }
        let x = try await addX()
        try await backUp()
        _ = try a.database.delete([x])
        await sync(a)
        await sync(b)
        #expect(try b.database.item(x)?.deleted == true, "B holds the delete")
        _ = try a.database.restore([x])
        await sync(a)
        #expect(try a.database.outbox(state: nil).isEmpty, "acknowledged")

        try await restore()
        await sync(a)
        try await backUp(to: "second.db")
        try await restore(from: "second.db")
        await sync(b)
        try await syncUntilQuiet()

        try await expectBody(x, "line1\n")
    }

    // MARK: - A review that waits across a restore

    /// B appends `line2` (acknowledged); A appends `line3` on `line1` and is asked to review it
    /// against B's version.
    func reviewOnA(_ x: String) async throws {
        try b.edit(x, body: "line1\nline2\n")
        await sync(b)
        try a.edit(x, body: "line1\nline3\n")
        await sync(a)
        #expect(try a.database.conflicts().map(\.itemID) == [x], "A reviews its line against B's")
    }

    /// A settles its review keeping both sides, then both sync until quiet: both lines survive
    /// everywhere.
    func resolveOnAKeepingBoth(_ x: String) async throws {
        #expect(try a.engine.ledger.resolve(x, keeping: .both) != nil, "A's review still waits")
        try await syncUntilQuiet()
        for device in [a, b] {
            let item = try #require(try device.database.item(x))
            #expect(!item.deleted, "\(device.name)")
            for line in ["line1", "line2", "line3"] {
                #expect(item.body.split(separator: "\n").contains(Substring(line)), "\(device.name): \(line)")
            }
        }
        try await expectEveryoneHoldsTheServersCopy()
    }

    /// Found by the simulation (seeds 1130, 1781, 2449): the restored server's copy is older than
    /// the version A's review holds as the server's. A's resync (its push fails once, so B
    /// re-sends `line2` first) must leave the review as it is: merged with the older copy, the
    /// review vanished, and A's next merge, over `line2`'s version from its history, took `line2`
    /// out everywhere.
    func aReviewWaitsForTheVersionARestoreLost() async throws {
        defer { Task { await server.stop() } }
        let x = try await addX()
        try await backUp()
        try await reviewOnA(x)

        try await restore()
        let lock = try WriteLockHolder(databasePath: server.databasePath)
        _ = await a.sync()
        lock.release()
        await sync(b)
        await sync(a)
        try await resolveOnAKeepingBoth(x)
    }

    /// Found by the simulation (seeds 5016, 5687): the restore lost an item A is reviewing. The
    /// tombstone A's resync builds is the server's copy its review shows, not A's copy with its
    /// unsent `line3`; and A's revival, answered with B's re-send, is merged over that tombstone,
    /// so `line3` survives.
    func aReviewOfAnItemARestoreLostKeepsItsUnsentLines() async throws {
        defer { Task { await server.stop() } }
        try await backUp()
        let x = try await addX()
        try await reviewOnA(x)

        try await restore()
        await sync(a)
        await sync(b)
        try await resolveOnAKeepingBoth(x)
    }
}

/// A device as `quire` runs it: its own home with the real store (`quire.db`, SQLite) and the
/// real sync engine, talking HTTP to the server through a loopback proxy that can lose answers.
final class HomeDevice: @unchecked Sendable {
    let name: String
    let home: String
    let database: AppDatabase
    let proxy: DroppingProxy
    let engine: SyncEngine

    init(_ name: String, server: SyncTestServer, token: String) throws {
        self.name = name
        home = NSTemporaryDirectory() + "quire-home-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        database = try AppDatabase.open(path: home + "/quire.db")
        let proxy = try DroppingProxy(targetPort: server.port)
        self.proxy = proxy
        let environment = database.environment
        let ledger = SyncLedger(storage: database.syncStorage(), now: environment.now, newID: environment.newID)
        let keys = server.keys
        engine = SyncEngine(
            ledger: ledger, limits: Device.testLimits,
            lock: SyncLock(path: SyncLock.path(forDatabase: database.path), now: environment.now),
            connect: {
                Device.sealing(
                    HTTPSyncTransport(baseURL: proxy.baseURL, token: token, timeout: 30, now: environment.now),
                    keys: keys)
            })
    }

    deinit {
        try? database.close()
        try? FileManager.default.removeItem(atPath: home)
    }

    func sync() async -> SyncMachine.RoundOutcome { await engine.runToCompletion() }

    func add(_ title: String, body: String, kind: ItemKind = .note) throws -> String {
        try database.create(NewItem(kind: kind, title: title, body: body)).id
    }

    func edit(_ id: String, body: String) throws {
        _ = try database.update(id, fields: [.body: .string(body)])
    }

    /// Every item this device holds, tombstones too, as wire text (fields, revision, times,
    /// server version).
    func copy() throws -> [String: String] {
        try database.syncStorage().read { tx in
            var items: [String: String] = [:]
            for local in try tx.items(idAfter: nil, through: nil) {
                items[local.id] = local.item.map { ChangeItem($0).compactJSON() } ?? "-"
            }
            return items
        }
    }
}

/// Holds an SQLite database's write lock from a connection of its own (an immediate
/// transaction on a thread of its own) until released, as an outside `sqlite3` would.
final class WriteLockHolder: @unchecked Sendable {
    private let taken = DispatchSemaphore(value: 0)
    private let released = DispatchSemaphore(value: 0)

    init(databasePath: String) throws {
        let queue = try DatabaseQueue(path: databasePath)
        Thread.detachNewThread { [taken, released] in
            try? queue.inTransaction(.immediate) { _ in
                taken.signal()
                released.wait()
                return .commit
            }
        }
        taken.wait()
    }

    func release() { released.signal() }
}
