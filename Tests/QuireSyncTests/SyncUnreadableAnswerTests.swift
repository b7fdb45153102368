import Foundation
import QuireCore
import QuireStore
import Testing

@testable import QuireSync

/// A push answered with the server's copy of an item that does not open on this device (altered
/// on the server, or sealed under keys it does not hold): the change is kept, set aside with the
/// reason, and the round ends; every other item syncs on. The server remembers each op's answer
/// and gives the same one again, so sending the change again at once could never succeed.
@Suite(.serialized) struct SyncUnreadableAnswerTests {
    @Test func aConflictAnswerThatDoesNotOpenSetsTheChangeAsideAndTheRoundEnds() async throws {
        let (server, token) = try await SyncTestServer.running(user: "ann", .encrypted)
        defer { Task { await server.stop() } }
        // A bounded round, so that a round that would send the change again and again ends;
        // the state hash checked once, at the first round, as the app does within ten minutes
        // (an item that does not open makes this device's copy differ from the server's).
        var limits = Device.testLimits
        limits.maxExchangesPerRound = 20
        limits.stateHashCheckInterval = 3_600
        let a = Device("a", server: server, token: token, limits: limits)
        let b = Device("b", server: server, token: token)
        let plan = a.create("Plan", body: "one\n")
        let other = a.create("Other")
        #expect(await a.sync() == .caughtUp)
        #expect(await b.sync() == .caughtUp)
        try b.update(plan, [.title: .string("Plan B")])
        #expect(await b.sync() == .caughtUp)
        // The server's copy, which the answer to a's conflicting edit carries, is altered.
        try SyncEncryptionTamperTests.flipACharacter(ofSealedBody: plan, in: server.databasePath)

        try a.update(plan, [.title: .string("Plan A")])
        try a.update(other, [.pinned: .bool(true)])
        let outcome = await a.engine.run(.normal)
        #expect(outcome == .caughtUp, "the round ends: \(outcome)")
        #expect((a.engine.recentRounds.last?.exchanges ?? .max) <= 2, "the change is not sent again and again")
        let kept = try #require(a.storage.outbox.first { $0.op.item == plan }, "the change is kept")
        #expect(kept.state == .rejected, "set aside")
        #expect(kept.lastError?.contains("does not open") == true, "\(kept.lastError ?? "")")
        #expect(a.item(plan)?.title == "Plan A", "what the person typed stays")
        #expect(a.unreadable.contains { $0.hasPrefix(plan) }, "\(a.unreadable)")
        #expect(a.item(other)?.syncState == .synced, "the other item synced on")
        #expect(await b.sync() == .caughtUp)
        #expect(b.item(other)?.pinned == true)
        #expect(await a.engine.run(.normal) == .caughtUp, "later rounds end too")
    }
}
