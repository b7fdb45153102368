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
