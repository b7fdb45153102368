import Foundation
import QuireCore
import QuireStore
import Synchronization
import Testing

@testable import QuireSync

/// A device's first pull says how many items it has received as each page lands, so the app
/// can show progress; later pulls say nothing (they are short, and the bar says syncing).
@Suite(.serialized) struct SyncFirstPullTests {
    /// Every count the engine reported, nil when the first pull was over.
    final class Heard: Sendable {
        let reports = Mutex<[Int?]>([])
        var all: [Int?] { reports.withLock { $0 } }
        func record(_ received: Int?) { reports.withLock { $0.append(received) } }
    }

    /// A server holding `count` items another device wrote, and a new device's engine that
    /// pulls them `pageSize` at a time and reports to `heard`.
    struct Setup {
        let server: SyncTestServer
        let writer: StoreDevice
        let database: AppDatabase
        let engine: SyncEngine
        let heard = Heard()

        init(items count: Int, pageSize: Int) async throws {
            let (server, token) = try await SyncTestServer.running(user: "ann")
            self.server = server
            writer = try StoreDevice(server: server, token: token)
            for index in 0..<count { try writer.database.create(NewItem(title: "Item \(index)")) }
            #expect(await writer.sync() == .caughtUp)
            let environment = StoreEnvironment.live
            database = try AppDatabase.temporary(environment: environment)
            var limits = Device.testLimits
            limits.pageSize = pageSize
            engine = SyncEngine(
                ledger: SyncLedger(storage: database.syncStorage(), now: environment.now, newID: environment.newID),
                limits: limits, lock: SyncLock(path: SyncLock.path(forDatabase: database.path), now: environment.now),
                connect: {
                    HTTPSyncTransport(
                        baseURL: server.baseURL, token: token, timeout: SyncTestServer.clientTimeout, now: { Date() })
                })
            let heard = heard
            engine.onFirstPull = { heard.record($0) }
        }
    }

    @Test func theFirstPullCountsTheItemsOfEachPageAndEndsWithNil() async throws {
        let setup = try await Setup(items: 25, pageSize: 7)
        defer { Task { await setup.server.stop() } }
        #expect(await setup.engine.runToCompletion() == .caughtUp)
        #expect(setup.heard.all == [0, 7, 14, 21, 25, nil], "\(setup.heard.all)")
        #expect(try setup.database.count(matching: .live) == 25)

        // A later pull is no first pull.
        try setup.writer.database.create(NewItem(title: "One more"))
        #expect(await setup.writer.sync() == .caughtUp)
        #expect(await setup.engine.runToCompletion() == .caughtUp)
        #expect(setup.heard.all.count == 6, "\(setup.heard.all)")
        #expect(try setup.database.count(matching: .live) == 26)
    }

    @Test func aDownloadOfEverythingCountsTheSnapshotsItems() async throws {
        let setup = try await Setup(items: 10, pageSize: 4)
        defer { Task { await setup.server.stop() } }
        #expect(await setup.engine.run(.resync) == .caughtUp)
        let heard = setup.heard.all
        #expect(heard.first == 0 && heard.last == .some(nil), "\(heard)")
        let counts = heard.compactMap { $0 }
        #expect(counts == counts.sorted() && counts.last == 10, "\(heard)")
    }
}
