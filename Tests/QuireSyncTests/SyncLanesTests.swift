import Foundation
import QuireCore
import QuireStore
import Testing

@testable import QuireSync

/// In the app, a pull applies its pages on the rounds' lane and decodes the page it asked for
/// ahead on another, both below the UI (`SyncEngine.runsBelowTheUI`).
@Suite struct SyncLanesTests {
    @Test func anAppsPullAppliesOnItsLaneAndAsksForTheNextPageOnAnother() async throws {
        let (server, token) = try await SyncTestServer.running(user: "ann")
        defer { Task { await server.stop() } }
        let writer = Device("writer", server: server, token: token)
        for index in 0..<30 { writer.create("Item \(index)") }
        #expect(await writer.sync() == .caughtUp)

        let reader = try AttachmentSyncTests.Device()
        let transport = AttachmentTransferCostTests.RecordingTransport(server, token: token)
        var limits = Device.testLimits
        limits.pageSize = 5
        let environment = StoreEnvironment.live
        let engine = SyncEngine(
            ledger: SyncLedger(storage: reader.store.syncStorage(), now: environment.now, newID: environment.newID),
            limits: limits, lock: nil, connect: { transport })
        engine.runsBelowTheUI = true
        #expect(await engine.runToCompletion() == .caughtUp)

        #expect(try reader.store.items().count == 30, "the pull came whole")
        let lowered = max(BackgroundThread.currentNiceness(), BackgroundThread.niceness)
        #expect(transport.roundNiceness.allSatisfy { $0 == lowered }, "\(transport.roundNiceness)")
        #expect(
            transport.roundThreadNames == ["quire.sync", "quire.fetch"],
            "the first page asked on the rounds' lane, the next ones ahead: \(transport.roundThreadNames)")
    }
}
