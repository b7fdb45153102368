import Foundation
import QuireCore
import QuireStore
import Testing

@testable import QuireSync

/// The sync event log stays bounded however long a device syncs, keeps the newest entries,
/// and says for every push and pull when, how much, how many bytes and how long.
@Suite(.serialized) struct SyncEventLogTests {
    func ledger(on storage: any SyncStorage) -> SyncLedger {
        let ids = LiveIDs()
        return SyncLedger(storage: storage, now: { Date() }, newID: { ids.next($0) })
    }

    /// Writes `count` numbered events, most in batches (as a round's reconciler does) and the
    /// last ones one by one through `log` (as the engine does).
    func fill(_ ledger: SyncLedger, count: Int) throws {
        let single = 50
        var written = 0
        while written < count - single {
            let batch = min(200, count - single - written)
            let events = (written..<written + batch).map {
                SyncEvent(at: Date(), kind: .pullOK, message: "event \($0)")
            }
            try ledger.storage.write { try $0.appendEvents(events, keeping: SyncLedger.eventLogLimit) }
            written += batch
        }
        for index in written..<count {
            try ledger.log(.retry, "event \(index)")
        }
    }

    @Test func theLogOnTheRealStoreKeepsOnlyTheNewestEntries() throws {
        let database = try AppDatabase.temporary(environment: .live)
        let ledger = ledger(on: database.syncStorage())
        let limit = SyncLedger.eventLogLimit
        let total = limit * 3 + 17
        try fill(ledger, count: total)
        let kept = try database.recentSyncEvents(limit: limit * 10)
        #expect(kept.count == limit, "the log holds exactly its bound")
        #expect(kept.first?.message == "event \(total - 1)", "the newest is kept")
        #expect(kept.last?.message == "event \(total - limit)", "the oldest kept is the bound's worth back")
        #expect(
            kept.map(\.message) == (total - limit..<total).reversed().map { "event \($0)" }, "in order, none missing")

        // One more event pushes exactly one old one out.
        try ledger.log(.syncStart, "one more")
        let after = try database.recentSyncEvents(limit: limit * 10)
        #expect(after.count == limit)
        #expect(after.first?.message == "one more")
        #expect(after.last?.message == "event \(total - limit + 1)")
    }

    /// Rounds that find nothing to do are one line that counts them, on the real store: a
    /// quiet app polling every minute keeps the log's real events on screen.
    @Test func quietRoundsAreCountedOnOneLine() throws {
        let database = try AppDatabase.temporary(environment: .live)
        let ledger = ledger(on: database.syncStorage())
        try ledger.log(.pushOK, "pushed 1 op")
        for _ in 0..<5 { try ledger.logRoundStart("sync started") }
        var events = try database.recentSyncEvents(limit: 100)
        #expect(events.map(\.kind) == [.syncStart, .pushOK])
        #expect(events.first?.message == "sync started · 4 rounds before found nothing to do")
        // A round that did something ends the run: the next start is a line of its own.
        try ledger.log(.pullOK, "pulled 2 changes")
        try ledger.logRoundStart("sync started")
        try ledger.logRoundStart("sync started")
        events = try database.recentSyncEvents(limit: 100)
        #expect(events.map(\.kind) == [.syncStart, .pullOK, .syncStart, .pushOK])
        #expect(events.first?.message == "sync started · 1 round before found nothing to do")
    }

    @Test func theInMemoryLogKeepsTheSameBound() throws {
        let storage = InMemorySyncStorage(deviceID: LiveIDs().next())
        let limit = SyncLedger.eventLogLimit
        let total = limit * 2 + 5
        try fill(ledger(on: storage), count: total)
        #expect(storage.events.count == limit)
        #expect(storage.events.last?.message == "event \(total - 1)")
        #expect(storage.events.first?.message == "event \(total - limit)")
    }

    @Test func aHugeMessageIsCutToOneBoundedLine() throws {
        let storage = InMemorySyncStorage(deviceID: LiveIDs().next())
        let ledger = ledger(on: storage)
        try ledger.log(
            .retry, "the server answered 502: " + String(repeating: "<html>", count: 10_000) + "\nsecond line")
        let message = try #require(storage.events.last?.message)
        #expect(message.count <= SyncLedger.eventMessageLimit)
        #expect(message.hasPrefix("the server answered 502: <html>"))
        #expect(!message.contains("\n"), "one line")
    }

    /// `pushed 2 ops: 2 applied · 812 bytes · 9 ms`, `pulled 3 changes · 1534 bytes · 9 ms`.
    static func numbers(in message: String, after prefix: String) -> (count: Int, bytes: Int, ms: Int)? {
        guard message.hasPrefix(prefix) else { return nil }
        let words = message.split(whereSeparator: { $0 == " " || $0 == ":" || $0 == "," })
        guard let count = Int(words.dropFirst().first ?? ""),
            let bytesAt = words.firstIndex(of: "bytes"), bytesAt > 0, let bytes = Int(words[bytesAt - 1]),
            let msAt = words.lastIndex(of: "ms"), msAt > 0, let ms = Int(words[msAt - 1])
        else { return nil }
        return (count, bytes, ms)
    }

    @Test func pushAndPullEventsCarryTimeCountsBytesAndDuration() async throws {
        let (server, token) = try await SyncTestServer.running(user: "ann")
        defer { Task { await server.stop() } }
        let a = try StoreDevice(server: server, token: token)
        let b = try StoreDevice(server: server, token: token)
        _ = try a.database.create(NewItem(title: "First", body: String(repeating: "text\n", count: 40)))
        _ = try a.database.create(NewItem(title: "Second"))
        let before = Date().addingTimeInterval(-1)
        #expect(await a.sync() == .caughtUp)
        #expect(await b.sync() == .caughtUp)
        let after = Date().addingTimeInterval(1)

        let pushes = try a.database.recentSyncEvents(limit: 50).filter { $0.kind == .pushOK }
        let push = try #require(pushes.first)
        let pushed = try #require(Self.numbers(in: push.message, after: "pushed"), "\(push.message)")
        #expect(pushed.count == 2)
        #expect(pushed.bytes > 200, "the request's size on the wire")
        #expect(pushed.ms >= 0)
        #expect(push.at >= before && push.at <= after)
        let round = try #require(a.engine.recentRounds.first { $0.opsPushed > 0 })
        #expect(pushed.bytes == round.bytesSent, "the bytes the transport counted")
        #expect(push.bytes == round.bytesSent, "the same figure, stored as a value")
        #expect(push.duration.map { Int(($0 * 1000).rounded()) } == pushed.ms)

        let pulls = try b.database.recentSyncEvents(limit: 50).filter { $0.kind == .pullOK }
        let pull = try #require(pulls.first)
        let pulled = try #require(Self.numbers(in: pull.message, after: "pulled"), "\(pull.message)")
        #expect(pulled.count == 2)
        #expect(pulled.bytes > 200, "two items' worth of answer")
        #expect(pull.at >= before && pull.at <= after)
        let pullRound = try #require(b.engine.recentRounds.first { $0.changesPulled > 0 })
        #expect(pulled.bytes == pullRound.bytesReceived)
        #expect(pull.bytes == pullRound.bytesReceived)
        #expect(pull.duration.map { Int(($0 * 1000).rounded()) } == pulled.ms)
        #expect(pullRound.duration.map { $0 >= 0 } == true)
    }

    /// `quire status` without a running worker tells offline from error, and when the server
    /// allows the next attempt, from the newest event's facts: its words are for people only.
    @Test func theStatusReadsTheNewestEventsFactsNotItsWords() {
        let at = Date(timeIntervalSince1970: 1_800_000_000)
        func state(_ event: SyncEvent) -> SyncConnection {
            SyncStatusReport.connection(hasRemote: true, syncingElsewhere: false, newest: event)
        }
        let unreachable = SyncEvent(at: at, kind: .retry, message: "the server answered 503", failure: .unreachable)
        #expect(state(unreachable) == .offline)
        let limited = SyncEvent(
            at: at, kind: .retry, message: "server unreachable · retry after 99 s", retryAfter: 30, failure: .server)
        #expect(state(limited) == .error)
        #expect(
            SyncStatusReport.serverWait(after: limited, now: at.addingTimeInterval(10)) == at.addingTimeInterval(30))
        #expect(
            SyncStatusReport.serverWait(after: limited, now: at.addingTimeInterval(31)) == nil, "that moment has passed"
        )
        #expect(SyncStatusReport.serverWait(after: unreachable, now: at) == nil)
        #expect(state(SyncEvent(at: at, kind: .auth, message: "", failure: .server)) == .authNeeded)
        #expect(state(SyncEvent(at: at, kind: .pullOK, message: "")) == .idle)
    }

    @Test func messagesCountInEnglish() {
        #expect(SyncEngine.counted(1, "op") == "1 op")
        #expect(SyncEngine.counted(0, "op") == "0 ops")
        #expect(SyncEngine.counted(500, "change") == "500 changes")
        var one = ReconcileSummary()
        one.needsReview = 1
        #expect(SyncEngine.describe(one) == ", 1 needs review")
        var two = ReconcileSummary()
        two.merged = 2
        two.needsReview = 2
        #expect(SyncEngine.describe(two) == ", 2 merged, 2 need review")
    }
}
