import Foundation
import QuireCore
import QuireProtocol
import QuireServer
import QuireStore
import QuireTestSupport
import Testing

@testable import QuireSync

/// The cases that lost, duplicated or diverged data after a server restore, an epoch renew or a
/// lost answer, each through the real server on a loopback port, and the bytes a device
/// downloads for its own writes.
@Suite(.serialized) struct SyncRestoreTests {
    func setUp(devices count: Int, _ encryption: AccountEncryption) async throws -> (SyncTestServer, [Device]) {
        let (server, token) = try await SyncTestServer.running(user: "ann", encryption)
        return (server, (0..<count).map { Device("device \($0 + 1)", server: server, token: token) })
    }

    func sync(_ device: Device, sourceLocation: SourceLocation = #_sourceLocation) async {
        let outcome = await device.sync()
        #expect(outcome == .caughtUp, "\(device.name): \(outcome)", sourceLocation: sourceLocation)
    }

    /// Every device holds exactly the server's items, byte for byte: every field, the revision,
    /// `updatedAt`, `doneAt` and the server version; nothing waits and nothing needs review.
    func expectIdentical(_ devices: [Device], server: SyncTestServer, sourceLocation: SourceLocation = #_sourceLocation)
        async throws
    {
        let token = try await server.admin { try await $0.addToken(userName: "ann") }
        let reference = Device("reference", server: server, token: token)
        #expect(await reference.sync() == .caughtUp, sourceLocation: sourceLocation)
        for device in devices {
            #expect(
                device.exactCopy == reference.exactCopy, "\(device.name) holds the server's bytes",
                sourceLocation: sourceLocation)
            for other in devices {
                #expect(
                    device.holdsTheSameCopies(as: other), "\(device.name) and \(other.name) agree on tombstones",
                    sourceLocation: sourceLocation)
            }
            #expect(
                device.storage.conflicts.isEmpty, "\(device.name): nothing needs review", sourceLocation: sourceLocation
            )
            #expect(device.storage.outbox.isEmpty, "\(device.name): nothing waits", sourceLocation: sourceLocation)
            #expect(device.unreadable.isEmpty, "\(device.name) opens every item", sourceLocation: sourceLocation)
        }
        try server.expectNoContentLeaks(sourceLocation: sourceLocation)
    }

    /// Restores the backup taken earlier and renews the epoch, as `quire-server restore` does.
    func restore(_ server: SyncTestServer, from backup: String) async throws {
        await server.stop()
        try server.restore(from: backup)
        _ = try await server.admin { try await $0.renewEpoch() }
        try await server.start()
    }

    func renewEpoch(_ server: SyncTestServer) async throws {
        await server.stop()
        _ = try await server.admin { try await $0.renewEpoch() }
        try await server.start()
    }

    // MARK: - Restore

    /// The server is backed up before X exists; A creates X and appends lines, B pulls, A appends
    /// `line4` and the server acknowledges it; the backup is restored. Whichever device syncs
    /// first, `line4` is kept everywhere and nobody is asked to review anything.
    @Test(arguments: [true, false], AccountEncryption.allCases)
    func anAcknowledgedAppendSurvivesARestoreWhicheverDeviceSyncsFirst(_ aFirst: Bool, _ encryption: AccountEncryption)
        async throws
    {
        let (server, devices) = try await setUp(devices: 2, encryption)
        defer { Task { await server.stop() } }
        let (a, b) = (devices[0], devices[1])
        await server.stop()
        try server.backUp(to: "before-x.db")
        try await server.start()

        let x = a.create("X", body: "line1\n")
        await sync(a)
        try a.update(x, [.body: .string("line1\nline2\n")])
        await sync(a)
        try a.update(x, [.body: .string("line1\nline2\nline3\n")])
        await sync(a)
        await sync(b)
        try a.update(x, [.body: .string("line1\nline2\nline3\nline4\n")])
        await sync(a)
        #expect(a.storage.outbox.isEmpty, "the server acknowledged line4")

        try await restore(server, from: "before-x.db")
        for device in aFirst ? [a, b, a, b] : [b, a, b, a] { await sync(device) }

        #expect(a.item(x)?.body == "line1\nline2\nline3\nline4\n")
        #expect(b.item(x)?.body == "line1\nline2\nline3\nline4\n")
        try await expectIdentical([a, b], server: server)
    }

    /// A restore to a backup that had X at an older version: the edits the server lost come back
    /// from the device that made them, merged with what was written after the restore.
    @Test(arguments: AccountEncryption.allCases)
    func editsTheRestoreLostAreMergedWithEditsMadeAfterIt(_ encryption: AccountEncryption) async throws {
        let (server, devices) = try await setUp(devices: 2, encryption)
        defer { Task { await server.stop() } }
        let (a, b) = (devices[0], devices[1])
        let x = a.create("Plan", body: "one\ntwo\nthree\n", tags: ["home"])
        await sync(a)
        await sync(b)
        await server.stop()
        try server.backUp(to: "older.db")
        try await server.start()

        try a.update(x, [.body: .string("one\ntwo\nthree\nfour from a\n"), .tags: .strings(["home", "a"])])
        await sync(a)
        await sync(b)

        try await restore(server, from: "older.db")
        // After the restore, b syncs first and pins X (b saw a's edit; the server did not keep it).
        await sync(b)
        try b.update(x, [.pinned: .bool(true)])
        await sync(b)
        await sync(a)
        await sync(b)

        for device in [a, b] {
            let item = try #require(device.item(x))
            #expect(item.body == "one\ntwo\nthree\nfour from a\n", "\(device.name)")
            #expect(item.tags == ["a", "home"], "\(device.name)")
            #expect(item.pinned, "\(device.name)")
        }
        try await expectIdentical([a, b], server: server)
    }

    // MARK: - Epoch renew

    /// The server applied A's append but the answer was lost; A then deleted X; the epoch was
    /// renewed with no data change. Only A ever touched X: no conflict, X ends deleted.
    @Test(arguments: AccountEncryption.allCases)
    func aLostAnswerThenADeleteAcrossAnEpochRenewIsNoConflict(_ encryption: AccountEncryption) async throws {
        let (server, devices) = try await setUp(devices: 1, encryption)
        defer { Task { await server.stop() } }
        let a = devices[0]
        let x = a.create("X", body: "line1\n")
        await sync(a)
        try a.update(x, [.body: .string("line1\nline2\n")])
        a.transport.fail(.dropAnswer)
        #expect(await a.engine.run(.normal) != .caughtUp, "the answer was lost")
        try a.delete(x)

        try await renewEpoch(server)
        await sync(a)

        #expect(a.item(x)?.deleted == true)
        #expect(a.storage.conflicts.isEmpty)
        #expect(!a.storage.events.contains { $0.kind == .conflict })
        try await expectIdentical([a], server: server)
    }

    /// The same with a second append instead of the delete: both appends once each.
    @Test(arguments: AccountEncryption.allCases)
    func aLostAnswerThenAnotherAppendAcrossAnEpochRenewKeepsBothOnce(_ encryption: AccountEncryption) async throws {
        let (server, devices) = try await setUp(devices: 1, encryption)
        defer { Task { await server.stop() } }
        let a = devices[0]
        let x = a.create("X", body: "line1\n")
        await sync(a)
        try a.update(x, [.body: .string("line1\nline2\n")])
        a.transport.fail(.dropAnswer)
        #expect(await a.engine.run(.normal) != .caughtUp)
        try a.update(x, [.body: .string("line1\nline2\nline3\n")])

        try await renewEpoch(server)
        await sync(a)

        #expect(a.item(x)?.body == "line1\nline2\nline3\n")
        #expect(a.storage.conflicts.isEmpty)
        try await expectIdentical([a], server: server)
    }

    /// B holds X; A deletes it; the epoch is renewed; B, which never edited X, takes the delete
    /// instead of sending X again and then conflicting at every sync.
    @Test(arguments: AccountEncryption.allCases)
    func aDeviceThatNeverEditedAnItemTakesItsDeleteAcrossAnEpochRenew(_ encryption: AccountEncryption) async throws {
        let (server, devices) = try await setUp(devices: 2, encryption)
        defer { Task { await server.stop() } }
        let (a, b) = (devices[0], devices[1])
        let x = a.create("X", body: "kept nowhere\n")
        await sync(a)
        await sync(b)
        try a.delete(x)
        await sync(a)

        try await renewEpoch(server)
        await sync(b)
        await sync(b)
        await sync(a)

        #expect(b.item(x)?.deleted == true)
        #expect(b.storage.conflicts.isEmpty)
        #expect(!b.storage.events.contains { $0.message.contains("sending it again") })
        try await expectIdentical([a, b], server: server)
    }

    // MARK: - Byte for byte

    /// The server is the clock of record: the device that made a change and the devices that
    /// pulled it hold the same `updatedAt`, `doneAt`, revision and version.
    @Test(arguments: AccountEncryption.allCases)
    func everyDeviceHoldsTheServersTimesAndRevisions(_ encryption: AccountEncryption) async throws {
        let (server, devices) = try await setUp(devices: 2, encryption)
        defer { Task { await server.stop() } }
        let (a, b) = (devices[0], devices[1])
        let task = a.create("Call the plumber", kind: .task)
        await sync(a)
        try a.update(task, [.done: .bool(true)])
        try a.update(task, [.title: .string("Call the plumber back")])
        await sync(a)
        await sync(b)
        try b.update(task, [.priority: .string("high")])
        await sync(b)
        await sync(a)

        #expect(a.item(task)?.doneAt != nil)
        #expect(a.item(task)?.doneAt == b.item(task)?.doneAt)
        #expect(a.item(task)?.updatedAt == b.item(task)?.updatedAt)
        #expect(a.item(task)?.serverVersion != nil)
        try await expectIdentical([a, b], server: server)
    }

    // MARK: - No echo

    /// Editing the title of a 1 MB note downloads what the title needs, not the note again; and
    /// after a lost answer, the device's own write is not reported as news from elsewhere.
    @Test(arguments: AccountEncryption.allCases)
    func aTitleEditOfALargeNoteDownloadsUnderTwoKilobytes(_ encryption: AccountEncryption) async throws {
        let (server, devices) = try await setUp(devices: 2, encryption)
        defer { Task { await server.stop() } }
        let (a, b) = (devices[0], devices[1])
        let body = String(repeating: "a line of a long note, written once and kept\n", count: 23_000)
        let note = a.create("Long note", body: body)
        await sync(a)
        await sync(b)

        try a.update(note, [.title: .string("Long note, renamed")])
        await sync(a)
        let received = a.engine.recentRounds.last?.bytesReceived ?? .max
        print("title edit of a 1 MB note: received \(received) bytes")
        #expect(received < 2_048, "received \(received) bytes")

        try a.update(note, [.title: .string("Long note, renamed again")])
        a.transport.fail(.dropAnswer)
        #expect(await a.engine.run(.normal) != .caughtUp)
        await sync(a)
        #expect((a.engine.recentRounds.last?.bytesReceived ?? .max) < 2_048)
        #expect(a.engine.recentRounds.last?.changesPulled == 0, "its own write is not news")
        await sync(b)
        #expect(b.item(note)?.title == "Long note, renamed again")
        try await expectIdentical([a, b], server: server)
    }
}

extension Device {
    /// Everything a device holds of each live item, byte for byte, but its badge. Tombstones
    /// are compared by what devices share of them (`tombstones`): their content is each
    /// device's own.
    var exactCopy: [String: String] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Dictionary(
            uniqueKeysWithValues: storage.allItems.filter { !$0.deleted }.map { item in
                var copy = item
                copy.syncState = .synced
                let json = (try? encoder.encode(copy)).map { String(decoding: $0, as: UTF8.self) } ?? "?"
                return (item.id, json)
            })
    }
}

/// A lost answer through a loopback proxy of our own between a device and the real server: the
/// server applied the push, the device never heard; the next sync converges with the change
/// applied once and nothing lost or duplicated.
@Suite(.serialized) struct LostAnswerProxyTests {
    @Test(arguments: AccountEncryption.allCases)
    func aPushWhoseAnswerIsLostOnTheWireIsAppliedOnce(_ encryption: AccountEncryption) async throws {
        let (server, token) = try await SyncTestServer.running(user: "ann", encryption)
        defer { Task { await server.stop() } }
        let proxy = try DroppingProxy(targetPort: server.port)
        let a = Device("behind the proxy", server: server, token: token, baseURL: proxy.baseURL)
        let b = Device("direct", server: server, token: token)

        let note = a.create("Shopping", body: "milk\n")
        #expect(await a.sync() == .caughtUp)
        try a.update(note, [.body: .string("milk\neggs\n")])
        proxy.dropAnswers(1)
        #expect(await a.engine.run(.normal) != .caughtUp, "the answer never arrived")
        #expect(proxy.droppedAnswers == 1, "\(a.storage.events.suffix(3).map(\.message))")
        #expect(a.storage.outbox.count == 1, "the change waits to be sent again")

        #expect(await a.sync() == .caughtUp)
        #expect(await b.sync() == .caughtUp)
        #expect(a.item(note)?.body == "milk\neggs\n")
        #expect(b.item(note)?.body == "milk\neggs\n")
        #expect(a.item(note)?.rev == 2, "applied once: one write after the create")
        #expect(a.exactCopy == b.exactCopy)
        #expect(a.storage.outbox.isEmpty && a.storage.conflicts.isEmpty)
        #expect(a.unreadable.isEmpty && b.unreadable.isEmpty)
        try server.expectNoContentLeaks()
    }
}
