import Foundation
import QuireCore
import QuireTestSupport
import QuireUI
import TerminalUI
import Testing

/// `h`: an item's versions newest first, any of them restored as a new change.
@Suite struct HistoryViewTests {
    /// "Buy milk" selected, marked done and renamed, then its history opened.
    func opened(size: Size = .standard) -> Harness {
        var harness = Harness(size: size)
        harness.state.timeZone = TimeZone(identifier: "UTC")!
        harness.press(.character("/"))
        harness.type("milk")
        harness.press(.enter)
        harness.press(.character("x"))
        harness.send(.tick(Fixtures.created.addingTimeInterval(90)))
        harness.press(.character("e"), .tab)
        harness.press(.control("a"), .control("k"))
        harness.type("Buy oat milk")
        harness.press(.control("s"))
        harness.press(.character("h"))
        return harness
    }

    @Test func theVersionsAreListedNewestFirstWithWhatEachChanged() throws {
        let harness = opened()
        let history = try #require(harness.state.history)
        #expect(history.versions?.count == 3)
        #expect(history.summary(at: 0) == "title \"Buy milk\" → \"Buy oat milk\"")
        #expect(history.summary(at: 1) == "done")
        #expect(harness.text.contains("History “Buy oat milk” · 3 versions"))
        #expect(harness.text.contains("> "))
    }

    @Test func restoringAnOlderVersionIsANewChangeThatUndoTakesBack() throws {
        var harness = opened()
        let id = try #require(harness.state.history?.itemID)
        harness.press(.character("G"), .character("r"))
        var item = try #require(harness.items.first { $0.id == id })
        #expect(item.title == "Buy milk" && !item.done)
        #expect(harness.state.notice?.text.hasPrefix("Restored the version of") == true)
        // The view stays, read again: the restore is the newest version now.
        #expect(harness.state.history?.versions?.count == 4)
        #expect(harness.state.history?.selected == 0)
        harness.press(.character("u"))
        item = try #require(harness.items.first { $0.id == id })
        #expect(item.title == "Buy oat milk" && item.done)
        #expect(harness.state.history?.versions?.first?.origin == "undo")
    }

    @Test func restoringWhatTheItemHoldsNowSaysSoAndWritesNothing() {
        var harness = opened()
        let writes = harness.effects.count
        harness.press(.character("r"))
        #expect(harness.state.notice?.text == "That version holds what the item holds now")
        #expect(harness.effects.count == writes)
        harness.press(.escape)
        #expect(harness.state.screen == .list)
    }

    @Test(arguments: Size.all)
    func snapshot(size: Size) {
        var harness = opened(size: size)
        harness.press(.character("j"))
        assertSnapshot(harness.text, named: "history-\(size)")
    }
}
