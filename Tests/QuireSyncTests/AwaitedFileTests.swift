import Foundation
import QuireCore
import QuireStore
import QuireTestSupport
import Testing

@testable import QuireSync

/// A device that pulls an item before the file it refers to is on the server (the device that
/// attached it still sending it) looks for the file again within seconds, not at the periodic
/// pull a minute later: no hint comes when a file arrives, since the items' feed does not move.
@Suite(.serialized) struct AwaitedFileTests {
    /// An engine over `device`'s store against `server`; it moves files when `files` says so.
    func engine(_ device: AttachmentSyncTests.Device, _ server: SyncTestServer, token: String, files: Bool)
        -> SyncEngine
    {
        let environment = StoreEnvironment.live
        let transport = HTTPSyncTransport(baseURL: server.baseURL, token: token, timeout: 30, now: { Date() })
        let engine = SyncEngine(
            ledger: SyncLedger(storage: device.store.syncStorage(), now: environment.now, newID: environment.newID),
            limits: QuireSyncTests.Device.testLimits,
            lock: SyncLock(path: SyncLock.path(forDatabase: device.store.path), now: environment.now),
            connect: { transport })
        if files { engine.attachments = AttachmentSync(store: device.store) }
        return engine
    }

    @Test func aFileStillOnItsWayIsDownloadedSoonAfterItReachesTheServer() async throws {
        let (server, token) = try await SyncTestServer.running(user: "ann")
        defer { Task { await server.stop() } }
        let a = try AttachmentSyncTests.Device()
        let b = try AttachmentSyncTests.Device()
        let file = try a.attachNew("scan.pdf", count: (2 << 20) + 5, seed: 21)

        // A sends the item that refers to the file, not yet the file.
        #expect(await engine(a, server, token: token, files: false).runToCompletion() == .caughtUp)

        // B's worker pulls it: the file is not there yet. Its periodic pull is ten minutes away
        // here, so only a look for the awaited file brings the file within the test's time.
        let receiver = engine(b, server, token: token, files: true)
        var configuration = SyncMachine.Configuration()
        configuration.periodic = 600
        let worker = SyncWorker(
            runner: receiver, scheduler: LiveSyncScheduler(now: { Date() }), configuration: configuration)
        worker.start()
        defer { worker.stop() }
        await eventually(timeout: 60) {
            receiver.filesAwaitedLooks > 0
                && (try? b.store.attachmentStates(of: [file])) == [.waitingToDownload]
        }

        // A sends the file. Nothing tells B: the items' feed did not move.
        #expect(await engine(a, server, token: token, files: true).runToCompletion() == .caughtUp)
        #expect(try a.store.attachmentStates(of: [file]) == [.here])

        // B looks again after 2, 4, 8 … seconds: a few seconds on an idle machine. The deadline
        // allows for a loaded one, where the upload itself may take a minute.
        await eventually(timeout: 120) { b.store.attachmentStore.contains(file.hash) }
        #expect(
            AttachmentSyncTests().fileHash(b.store.attachmentStore.path(of: file.hash)) == file.hash, "byte for byte")
        await eventually { receiver.filesAwaitedLooks == 0 }
    }
}
