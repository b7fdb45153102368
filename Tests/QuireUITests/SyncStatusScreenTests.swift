import Foundation
import QuireCore
import QuireTestSupport
import QuireUI
import TerminalUI
import Testing

/// The sync status screen as text, and what its keys ask of the runtime.
@Suite struct SyncStatusScreenTests {
    @Test(arguments: Size.all)
    func withoutARemote(size: Size) {
        let harness = SyncStatusFixtures.harness(size: size, detail: SyncStatusFixtures.localOnly, depths: [2])
        assertSnapshot(harness.text, named: "sync-status-local-\(size)")
        #expect(harness.text.contains("remote"))
        #expect(!harness.text.contains("Rejected changes"))
    }

    @Test(arguments: Size.all)
    func withDeadLettersConflictsAndEvents(size: Size) {
        var harness = SyncStatusFixtures.harness(size: size, detail: SyncStatusFixtures.busy)
        harness.press(.character("j"))
        assertSnapshot(harness.text, named: "sync-status-busy-\(size)")
        let text = harness.text
        #expect(text.contains("Rejected changes (2)"))
        #expect(text.contains("offline"))
        // The selected dead letter is the second one, and the token never shows.
        #expect(harness.state.syncStatus.selectedDeadLetter?.opID == Fixtures.id(902))
        #expect(harness.text.split(separator: "\n").contains { $0.hasPrefix(" > 日本語のメモ") })
    }

    /// The items that do not open here stay on the screen for as long as the store records
    /// them (the UNREADABLE events age out of the log): counted, each with its short id, the
    /// title of the copy held here and why, never run together on a narrow terminal.
    @Test(arguments: Size.all)
    func withUnreadableItems(size: Size) {
        let harness = SyncStatusFixtures.harness(size: size, detail: SyncStatusFixtures.unreadable)
        assertSnapshot(harness.text, named: "sync-status-unreadable-\(size)")
        let lines = harness.text.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix(" Unreadable (3)") }, "\(harness.text)")
        let shown = size.height >= 20 ? 3 : 1
        let rows = lines.filter { $0.hasPrefix("   ? ") }
        #expect(rows.count == shown, "\(harness.text)")
        let expected = [
            "   ? c0de Groceries", "   ? 0193a9d2 (not on this device) — the MAC", "   ? be7a1 日本語のメモ — its body",
        ]
        for (row, start) in zip(rows, expected) {
            #expect(row.hasPrefix(String(start.prefix(size.width))), "\(row)")
        }
    }

    @Test func theLargeScreenShowsEveryFact() {
        let harness = SyncStatusFixtures.harness(size: .large, detail: SyncStatusFixtures.busy)
        let text = harness.text
        for fact in [
            "https://sync.example.com/quire", "offline · server unreachable (connection refused)", "7 waiting",
            "in flight  2", "2026-11-21 21:26 UTC", "next retry 2026-11-21 22:26:48 UTC", "sent       42 KB",
            "received   1.2 MB",
            "p50 340 ms · p95 1.5 s", "rounds     4 in the event log", "press c to resolve",
            "Café order: crème brûlée", "Recent events", "event 30:", "▁",
        ] {
            #expect(text.contains(fact), "\(fact)")
        }
        // Newest event first.
        let newest = text.range(of: "event 30:")!.lowerBound
        let older = text.range(of: "event 29:")!.lowerBound
        #expect(newest < older)
    }

    /// The state line is the worker's own news in a plain sentence, the same as the status bar
    /// says; `i` shows what the failure said word for word, and `i` again hides it.
    @Test func theStateIsTheWorkersInPlainWordsAndIShowsWhatTheFailureSaid() {
        var harness = SyncStatusFixtures.harness(size: .large, detail: SyncStatusFixtures.busy)
        let raw = "connection reset (error set): Connection refused (errno: 111)"
        harness.send(
            .syncWorkerChanged(
                SyncWorkerState(
                    connection: .offline, nextRetry: Fixtures.created.addingTimeInterval(3), live: false,
                    problem: "The server cannot be reached; changes wait on this device.", problemDetail: raw,
                    pollingReason: "the live connection to the server was lost", pollingDetail: raw)))
        var text = harness.text
        #expect(text.contains("offline · The server cannot be reached; changes wait on this device."), "\(text)")
        #expect(!text.contains("Connection refused"), "no raw error until asked for")
        #expect(harness.state.syncLine.hasSuffix("offline, retrying in 3s"), "the bar agrees")
        harness.press(.character("i"))
        text = harness.text
        #expect(text.contains("it said"), "\(text)")
        #expect(text.contains("Connection refused"), "\(text)")
        harness.press(.character("i"))
        #expect(!harness.text.contains("Connection refused"))
    }

    /// A first sync shows how many items have come so far, on the screen as in the bar, and
    /// each page moves it on; once it is over, neither speaks of it.
    @Test func aFirstSyncShowsTheItemsReceivedSoFar() {
        var harness = SyncStatusFixtures.harness(size: .large, detail: SyncStatusFixtures.busy)
        harness.send(.syncWorkerChanged(SyncWorkerState(connection: .syncing, firstPullReceived: 12_500)))
        #expect(harness.state.syncLine.hasSuffix("first sync · 12,500 items received"), "\(harness.state.syncLine)")
        #expect(harness.text.contains("syncing · first sync · 12,500 items received so far"), "\(harness.text)")
        harness.send(.syncWorkerChanged(SyncWorkerState(connection: .syncing, firstPullReceived: 13_000)))
        #expect(harness.text.contains("first sync · 13,000 items received so far"), "\(harness.text)")
        harness.send(.syncWorkerChanged(SyncWorkerState(connection: .idle, lastSuccess: Fixtures.created)))
        #expect(!harness.text.contains("first sync"), "\(harness.text)")
        #expect(!harness.state.syncLine.contains("first sync"))
    }

    @Test func everySizeKeepsToItsRows() {
        for size in Size.all + [Size(width: 20, height: 6), Size(width: 200, height: 60)] {
            let harness = SyncStatusFixtures.harness(size: size, detail: SyncStatusFixtures.busy)
            let lines = harness.text.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count == size.height, "\(size)")
            #expect(lines.allSatisfy { $0.displayWidth <= size.width }, "\(size)")
            #expect(lines.last?.contains("Syn") == true, "\(size): \(lines.last ?? "")")
        }
    }

    @Test func openingTheScreenAsksForTheReportAndStoreChangesAskAgainOnlyOnce() {
        var harness = Harness(size: .standard)
        harness.press(.character("S"))
        #expect(harness.effects.last == .syncStatus(.load))
        #expect(harness.state.syncStatus.loading)
        let before = harness.effects.count
        harness.send(.storeChanged)
        harness.send(.storeChanged)
        // A read is running: the changes only mark that another is wanted.
        #expect(harness.effects.dropFirst(before).filter { $0 == .syncStatus(.load) }.isEmpty)
        harness.send(.syncStatus(.loaded(SyncStatusFixtures.busy)))
        #expect(harness.effects.last == .syncStatus(.load))
        harness.send(.syncStatus(.loaded(SyncStatusFixtures.busy)))
        #expect(!harness.state.syncStatus.loading)
        harness.press(.escape)
        #expect(harness.state.screen == .list)
        let closed = harness.effects.count
        harness.send(.storeChanged)
        #expect(!harness.effects.dropFirst(closed).contains(.syncStatus(.load)))
    }

    @Test func retryAsksAtOnceAndDiscardAsksFirst() {
        var harness = SyncStatusFixtures.harness(size: .standard, detail: SyncStatusFixtures.busy)
        let first = SyncStatusFixtures.busy.deadLetters[0]
        let second = SyncStatusFixtures.busy.deadLetters[1]
        harness.press(.character("r"))
        #expect(harness.effects.last == .syncStatus(.retry(first)))
        harness.press(.character("j"), .character("D"))
        #expect(harness.state.question == .discardDeadLetter(second))
        #expect(harness.text.contains("Discard the rejected change to 日本語のメモ?"))
        harness.press(.character("n"))
        #expect(harness.state.question == nil)
        #expect(harness.effects.last != .syncStatus(.discard(second)))
        harness.press(.character("x"), .character("y"))
        #expect(harness.effects.last == .syncStatus(.discard(second)))
        harness.send(.syncStatus(.handled(.discard(second), .success(true))))
        #expect(harness.text.contains("Discarded the rejected change to 日本語のメモ"))
        #expect(harness.effects.last == .syncStatus(.load))
    }

    @Test func theSelectionFollowsItsDeadLetterAcrossReloads() {
        var harness = SyncStatusFixtures.harness(size: .standard, detail: SyncStatusFixtures.busy)
        harness.press(.character("j"), .character("j"))
        #expect(harness.state.syncStatus.selection == 1)
        var fewer = SyncStatusFixtures.busy
        fewer.deadLetters.removeFirst()
        harness.send(.syncStatus(.loaded(fewer)))
        #expect(harness.state.syncStatus.selectedDeadLetter?.opID == Fixtures.id(902))
        fewer.deadLetters = []
        harness.send(.syncStatus(.loaded(fewer)))
        #expect(harness.state.syncStatus.selectedDeadLetter == nil)
        harness.press(.character("r"))
        #expect(harness.text.contains("No rejected change to retry"))
    }

    @Test func cGoesToTheNextItemNeedingReview() {
        var harness = SyncStatusFixtures.harness(size: .standard, detail: SyncStatusFixtures.busy)
        harness.press(.character("c"))
        #expect(harness.state.screen == .list)
        #expect(harness.effects.last == .findNextNeedingReview(after: nil))
    }

    @Test func theOutboxDepthIsSampledWhenTheSummaryChanges() {
        var state = AppState(size: .standard)
        let summary = SyncSummary(connection: .idle, pending: 4)
        _ = state.update(.syncChanged(summary))
        // The same summary again (the line's clock moved on) is no new sample.
        _ = state.update(.tick(Fixtures.created))
        _ = state.update(.syncChanged(summary))
        _ = state.update(.syncChanged(SyncSummary(connection: .idle, pending: 0)))
        #expect(state.syncStatus.depthHistory == [4, 0])
        for depth in 0..<100 {
            _ = state.update(.syncChanged(SyncSummary(connection: .idle, pending: depth + 1)))
        }
        #expect(state.syncStatus.depthHistory.count == SyncStatusState.historyLimit)
        #expect(state.syncStatus.depthHistory.last == 100)
    }
}
