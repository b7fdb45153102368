import Foundation
import QuireApp
import QuireCore
import QuireProtocol
import QuireStore
import QuireSync
import QuireTestSupport
import QuireUI
import TerminalUI
import Testing

/// The sync status screen through the real runtime, over a real store file with real dead
/// letters, driven by key presses.
@Suite struct SyncStatusRuntimeTests {
    /// A store with two items whose create ops the server refused, and a remote configured.
    final class Setup: @unchecked Sendable {
        let app: AppHarness
        let ledger: SyncLedger
        let milk: Item
        let memo: Item

        var store: AppDatabase { app.store }
        var backend: TestBackend { app.backend }
        var runtime: AppRuntime { app.runtime }

        init(size: Size = Size(width: 80, height: 24)) throws {
            let environment = StoreEnvironment.deterministic()
            var made: (ledger: SyncLedger, milk: Item, memo: Item)?
            app = try AppHarness(
                size: size, storeEnvironment: environment,
                prepare: { store, _ in
                    let ledger = SyncLedger(
                        storage: store.syncStorage(), now: environment.now, newID: environment.newID)
                    let milk = try store.create(NewItem(kind: .task, title: "Buy milk"))
                    let memo = try store.create(NewItem(title: "日本語のメモ"))
                    _ = try store.create(NewItem(title: "Fine as it is"))
                    for item in [milk, memo] {
                        let op = try #require(try store.outbox(for: item.id).first)
                        try ledger.deadLetter(
                            opID: op.op.id, item: item.id, reason: "the server refused it as too large")
                    }
                    // An item from the server that both sides then changed: it needs review.
                    let shared = "0193a9d2-0000-7000-8000-00000000c0de"
                    let pulledAt = Date(timeIntervalSince1970: 1_799_000_000)
                    func page(rev: Int, title: String, cursor: String) -> SyncResponse {
                        SyncResponse(
                            results: [],
                            changes: [
                                ChangeItem(
                                    id: shared, rev: rev, title: title, createdAt: pulledAt,
                                    updatedAt: pulledAt.addingTimeInterval(Double(rev)))
                            ],
                            cursor: cursor, more: false, epoch: "e1", stateHash: "")
                    }
                    _ = try ledger.applyPage(page(rev: 1, title: "Team offsite plan", cursor: "c1"))
                    _ = try store.update(shared, fields: [.title: .string("Team offsite plan (Lisbon)")])
                    _ = try ledger.applyPage(page(rev: 2, title: "Team offsite plan (Porto)", cursor: "c2"))
                    made = (ledger, milk, memo)
                },
                sync: { directory in
                    let settings = SyncSettings(
                        configPath: directory + "/config.toml", credentialsPath: directory + "/credentials")
                    try settings.setRemote(SyncRemote(url: "http://127.0.0.1:9/quire", token: "very-secret-token"))
                    return LiveSyncControl(settings: settings)
                })
            let prepared = try #require(made)
            (ledger, milk, memo) = (prepared.ledger, prepared.milk, prepared.memo)
        }

        func press(_ keys: Key...) {
            for key in keys { app.press(key) }
        }

        func waitFor(timeout: TimeInterval = 5, _ condition: () throws -> Bool) rethrows -> Bool {
            try app.waitFor(timeout: timeout, condition)
        }

        func rejected(_ item: Item) throws -> [OutboxOp] {
            try store.outbox(for: item.id).filter { $0.state == .rejected }
        }
    }

    @Test func retryAndDiscardDeadLettersFromTheScreen() throws {
        let app = try Setup()
        let milkOp = try #require(try app.rejected(app.milk).first).op.id
        let memoOp = try #require(try app.rejected(app.memo).first).op.id

        app.press(.character("S"))
        #expect(app.waitFor { app.backend.text.contains("Rejected changes (2)") }, "\(app.backend.text)")
        let text = app.backend.text
        #expect(text.contains("http://127.0.0.1:9/quire"))
        #expect(!text.contains("very-secret-token"))
        #expect(text.contains("1 waiting"))
        #expect(text.contains("DEAD_LETTER"))
        #expect(text.contains("Needs review (1)"))
        #expect(text.contains("! Team offsite plan (Lisbon)"))
        #expect(app.runtime.currentState.syncStatus.selectedDeadLetter?.opID == milkOp)

        // Retry the first: the op is pending again under a new id.
        app.press(.character("r"))
        #expect(try app.waitFor { try app.rejected(app.milk).isEmpty })
        let requeued = try app.store.outbox(for: app.milk.id)
        #expect(requeued.count == 1)
        #expect(requeued.first?.state == .pending)
        #expect(requeued.first?.op.id != milkOp)
        #expect(requeued.first?.attempts == 0)
        #expect(app.waitFor { app.backend.text.contains("Rejected changes (1)") }, "\(app.backend.text)")
        #expect(app.runtime.currentState.notice?.text == "Queued again: Buy milk")
        #expect(
            app.waitFor { app.backend.screen.lines.last?.contains("1 change rejected") == true }, "\(app.backend.text)")
        #expect(app.backend.text.contains("2 waiting"))

        // Discard the other, which asks first; "no" keeps it.
        #expect(app.runtime.currentState.syncStatus.selectedDeadLetter?.opID == memoOp)
        app.press(.character("D"))
        #expect(app.backend.text.contains("Discard the rejected change to 日本語のメモ?"))
        app.press(.character("n"))
        #expect(try app.rejected(app.memo).count == 1)
        app.press(.character("D"), .character("y"))
        #expect(try app.waitFor { try app.store.outbox(for: app.memo.id).isEmpty })
        #expect(app.waitFor { !app.backend.text.contains("Rejected changes") }, "\(app.backend.text)")
        #expect(try app.store.item(app.memo.id)?.title == "日本語のメモ")
        let counts = try app.store.outboxCounts()
        #expect(counts.pending == 2 && counts.inFlight == 0 && counts.rejected == 0)

        app.press(.escape)
        #expect(app.runtime.currentState.screen == .list)
    }

    @Test func theOpenScreenFollowsChangesFromElsewhere() throws {
        let app = try Setup()
        app.press(.character("S"))
        #expect(app.waitFor { app.backend.text.contains("Rejected changes (2)") })
        // Another writer (the sync engine, another process) discards one: the screen follows.
        #expect(
            try app.ledger.discardDeadLetter(try #require(try app.rejected(app.milk).first).op.id, item: app.milk.id))
        #expect(app.waitFor { app.backend.text.contains("Rejected changes (1)") }, "\(app.backend.text)")
        // Typing stays live meanwhile: the keys still work.
        app.press(.character("q"))
        #expect(app.runtime.currentState.screen == .list)
    }

    /// A sync control whose report takes as long as the test wants.
    struct SlowSync: SyncControl {
        let gate: DispatchSemaphore
        func summary(counts: StoreCounts) -> SyncSummary { LocalOnlySync().summary(counts: counts) }
        func syncNow() -> SyncNowAnswer { LocalOnlySync().syncNow() }
        func statusDetail(store: AppDatabase) throws -> SyncStatusDetail {
            // Bounded, so a runtime that wrongly waits on the UI queue fails the test instead of hanging it.
            _ = gate.wait(timeout: .now() + 5)
            return try SyncStatusReading.detail(store: store, remote: nil, connection: .noRemote)
        }
    }

    /// The items that do not open here are read from the store with the rest of the report, so
    /// the open screen follows the marks as sync records and clears them.
    @Test func theOpenScreenShowsTheItemsMarkedUnreadableAsTheStoreRecordsThem() throws {
        let app = try Setup()
        app.press(.character("S"))
        #expect(app.waitFor { app.backend.text.contains("Rejected changes (2)") })
        #expect(!app.backend.text.contains("Unreadable"))
        let never = "0193a9d2-0000-7000-8000-0000000fade5"
        let storage = app.store.syncStorage()
        func mark(_ id: String, reason: String) throws {
            try storage.write { tx in
                let old = try tx.items([id])[id] ?? LocalItem(id: id)
                var new = old
                new.unreadable = UnreadableVersion(
                    itemID: id, rev: 3, deleted: false, reason: reason,
                    seenAt: Date(timeIntervalSince1970: 1_799_000_000))
                try tx.save(new, over: old)
            }
        }
        try mark(app.milk.id, reason: "its title does not open: sealed under key id 2")
        try mark(never, reason: "the MAC of its body does not match its value")
        let milkShort = try #require(try app.store.shortIDs(for: [app.milk.id])[app.milk.id])
        #expect(app.waitFor { app.backend.text.contains("Unreadable (2)") }, "\(app.backend.text)")
        #expect(app.backend.text.contains("? \(milkShort) Buy milk — its title does not open"), "\(app.backend.text)")
        #expect(app.backend.text.contains("? 0193a9d2 (not on this device) — the MAC"), "\(app.backend.text)")

        // A readable version arrives for one: its mark goes, and the screen follows.
        try storage.write { tx in
            let old = try #require(try tx.items([never])[never])
            var new = old
            new.unreadable = nil
            try tx.save(new, over: old)
        }
        #expect(app.waitFor { app.backend.text.contains("Unreadable (1)") }, "\(app.backend.text)")
        #expect(!app.backend.text.contains("not on this device"))
    }

    @Test func aSlowReportNeverBlocksTyping() throws {
        let directory = try makeTemporaryDirectory("quire-sync-status-slow")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try AppDatabase.open(path: directory + "/quire.db", environment: .deterministic())
        _ = try store.create(NewItem(title: "Still here"))
        let gate = DispatchSemaphore(value: 0)
        let backend = TestBackend(size: Size(width: 80, height: 24))
        let runtime = AppRuntime(
            environment: AppEnvironment(
                items: StoreItemSource(store: store), statusStore: store, sync: SlowSync(gate: gate),
                temporaryDirectory: directory, changePollInterval: .milliseconds(20)),
            backend: backend, label: "quire.ui.sync-status-slow")
        runtime.start()
        #expect(runtime.waitUntilIdle())
        runtime.send(.key(.character("S")))
        func shows(_ text: String) -> Bool {
            waitUntil(timeout: 2) { backend.text.contains(text) }
        }
        #expect(shows("remote     reading…"), "\(backend.text)")
        // The report is still being read: keys are handled all the same.
        runtime.send(.key(.escape))
        #expect(shows("Still here"), "\(backend.text)")
        gate.signal()
        #expect(runtime.waitUntilIdle())
        runtime.stop()
        _ = runtime.waitUntilStopped()
    }

    @Test func roundsAreReadFromTheEventLog() {
        let base = Date(timeIntervalSince1970: 1_800_000_000)
        func event(
            _ seq: Int64, _ seconds: Double, _ kind: SyncEventKind, _ message: String = "", bytes: Int? = nil
        ) -> SyncEvent {
            SyncEvent(seq: seq, at: base.addingTimeInterval(seconds), kind: kind, message: message, bytes: bytes)
        }
        let log = [
            event(1, 0, .pushOK, "pushed 1 ops: 1 applied · 999 bytes · 5 ms", bytes: 999),  // its start was cut off
            event(2, 10, .syncStart, "sync started"),
            event(3, 10.2, .pushOK, "pushed 3 ops: 3 applied · 1200 bytes · 150 ms", bytes: 1200),
            event(4, 10.5, .pullOK, "pulled 2 changes · 3400 bytes · 150 ms", bytes: 3400),
            event(5, 20, .syncStart, "sync started"),
            event(6, 30, .syncStart, "sync started"),
            event(7, 31, .retry, "server unreachable (connection refused)"),
        ].shuffled()
        let rounds = SyncStatusReading.rounds(fromLog: log)
        #expect(rounds.count == 3)
        #expect(rounds.map(\.bytesSent) == [1200, 0, 0])
        #expect(rounds.map(\.bytesReceived) == [3400, 0, 0])
        #expect(abs((rounds[0].duration ?? 0) - 0.5) < 0.001)
        #expect(rounds[1].duration == nil)
        #expect(abs((rounds[2].duration ?? 0) - 1) < 0.001)
    }
}
