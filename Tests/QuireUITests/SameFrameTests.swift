import Foundation
import QuireCore
import QuireUI
import TerminalUI
import Testing

/// A sync that settles an item changes its row's badge and the status bar in the same frame:
/// the status bar's new counts wait for the list page read after the same commit.
@Suite struct SameFrameTests {
    @Test func theStatusBarWaitsForThePageOfTheSameCommit() throws {
        var harness = Harness(size: .standard)
        #expect(harness.text.contains("2 pending"))
        // The sync worker commits: every item is synced now.
        harness.items = harness.items.map { item in
            var item = item
            item.syncState = .synced
            return item
        }
        // The runtime's poll sends these two together; the page is read off the UI queue.
        let refresh = harness.state.update(.storeChanged)
        let synced = SyncSummary(connection: .idle, pending: 0, lastSuccess: Fixtures.created)
        _ = harness.state.update(.syncChanged(synced))
        #expect(harness.text.contains("2 pending"), "the status bar must not run ahead of the rows")
        guard case .load(let request)? = refresh.first else {
            Issue.record("a store change must read the list again")
            return
        }
        harness.send(.listLoaded(harness.page(for: request)))
        #expect(!harness.text.contains("pending"))
        #expect(harness.state.sync == synced)
    }

    /// A sync worker that commits progress ten times a second makes each poll read the list
    /// again: what the read finds unchanged draws no frame, what it changed does.
    @Test func aStoreChangeThatShowsNothingNewIsTheSameScreen() throws {
        var harness = Harness(size: .standard)
        let drawn = harness.state
        let refresh = harness.state.update(.storeChanged)
        _ = harness.state.update(.syncChanged(SyncSummary(connection: .noRemote, pending: 2)))
        harness.send(.tick(Fixtures.created.addingTimeInterval(0.1)))
        #expect(harness.state != drawn, "the store change is under way in the state")
        #expect(harness.state.drawsTheSameScreen(as: drawn))
        #expect(harness.state.render() == drawn.render(), "and the screen must not differ")
        guard case .load(let request)? = refresh.first else {
            Issue.record("a store change must read the list again")
            return
        }
        harness.send(.listLoaded(harness.page(for: request)))
        #expect(harness.state.drawsTheSameScreen(as: drawn), "the same rows came back")

        // The next commit settles an item: its row and the status bar change.
        let settle = harness.state.update(.storeChanged)
        harness.items = harness.items.map { item in
            var item = item
            item.syncState = .synced
            return item
        }
        _ = harness.state.update(.syncChanged(SyncSummary(connection: .idle, pending: 0)))
        guard case .load(let request)? = settle.first else {
            Issue.record("a store change must read the list again")
            return
        }
        harness.send(.listLoaded(harness.page(for: request)))
        #expect(!harness.state.drawsTheSameScreen(as: drawn))
        #expect(harness.state.render() != drawn.render())
    }

    /// An upload goes in rounds, several a second: the worker's news of each changes its
    /// counts and times, and the status bar says "syncing" all along.
    @Test func aRoundThatLeavesTheStatusBarAloneIsTheSameScreenOutsideTheSyncStatusScreen() {
        var harness = Harness(size: .standard)
        let start = Fixtures.created
        harness.send(.syncWorkerChanged(SyncWorkerState(connection: .syncing, lastSuccess: start, roundsStarted: 3)))
        let drawn = harness.state
        harness.send(
            .syncWorkerChanged(
                SyncWorkerState(
                    connection: .syncing, lastSuccess: start.addingTimeInterval(0.1), roundsStarted: 4,
                    roundsFinished: 3)))
        #expect(harness.state.sync != drawn.sync)
        #expect(harness.state.syncLine == drawn.syncLine)
        #expect(harness.state.drawsTheSameScreen(as: drawn))
        #expect(harness.state.render() == drawn.render())

        // The sync status screen shows the worker's state in full: there it is a new screen.
        var onStatusScreen = drawn
        onStatusScreen.screen = .syncStatus
        var afterRound = harness.state
        afterRound.screen = .syncStatus
        #expect(!afterRound.drawsTheSameScreen(as: onStatusScreen))

        // The round ends with an item to review: the status bar says so, in the error colour.
        harness.send(.syncChanged(SyncSummary(connection: .idle, pending: 2, needsReview: 1)))
        #expect(!harness.state.drawsTheSameScreen(as: drawn))
    }

    @Test func theClockIsTheSameScreenUntilItChangesWhatIsShown() {
        var harness = Harness(size: .standard)
        harness.send(.notice(.info("Saved")))
        let drawn = harness.state
        harness.send(.tick(Fixtures.created.addingTimeInterval(1)))
        #expect(harness.state.drawsTheSameScreen(as: drawn))
        // A countdown in the status bar: each second's tick is a new screen.
        harness.send(
            .syncChanged(
                SyncSummary(
                    connection: .offline, pending: 2, nextRetry: Fixtures.created.addingTimeInterval(9))))
        let counting = harness.state
        harness.send(.tick(Fixtures.created.addingTimeInterval(3)))
        #expect(harness.state.syncLine != counting.syncLine, "\(harness.state.syncLine)")
        #expect(!harness.state.drawsTheSameScreen(as: counting))
        // The history screen shows a version of today by its time, an older one by its date.
        let list = Harness(size: .standard).state
        var listNextDay = list
        _ = listNextDay.update(.tick(Fixtures.created.addingTimeInterval(86_400)))
        #expect(listNextDay.drawsTheSameScreen(as: list))
        var history = list
        history.screen = .history(HistoryState(itemID: "0193a9d2-0001-7000-8000-000000000000", title: "Ideas"))
        var historyNextDay = history
        _ = historyNextDay.update(.tick(Fixtures.created.addingTimeInterval(86_400)))
        #expect(!historyNextDay.drawsTheSameScreen(as: history))

        // A key that moves the selection is a new screen.
        let beforeKey = harness.state
        harness.press(.character("j"))
        #expect(!harness.state.drawsTheSameScreen(as: beforeKey))
    }

    @Test func aReadThatNeverAnswersDoesNotHoldTheStatusBar() {
        var harness = Harness(size: .standard)
        _ = harness.state.update(.storeChanged)
        let synced = SyncSummary(connection: .idle, pending: 0, lastSuccess: Fixtures.created)
        _ = harness.state.update(.syncChanged(synced))
        #expect(harness.state.sync != synced)
        harness.send(.tick(Fixtures.created.addingTimeInterval(2)))
        #expect(harness.state.sync == synced)
    }
}
