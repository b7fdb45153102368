import Foundation
import QuireCore
import QuireTestSupport
import QuireUI
import TerminalUI
import Testing

/// Screens say what is true: no overdue mark on a done task, no `done` on a note, a deleted
/// item says so, undo names what it took back, tags with spaces read as one tag.
@Suite struct TruthfulScreenTests {
    static let small = Size(width: 20, height: 6)

    @Test func aDoneTaskPastItsDueDateIsNotOverdue() {
        let done = Item(
            id: Fixtures.id(50), kind: .task, title: "Filed taxes", done: true, doneAt: Fixtures.created,
            due: Day("2026-11-01"), createdAt: Fixtures.created)
        let open = Item(
            id: Fixtures.id(51), kind: .task, title: "Renew passport", due: Day("2026-11-01"),
            createdAt: Fixtures.created.addingTimeInterval(1))
        let newest = Item(
            id: Fixtures.id(52), kind: .note, title: "Selected", createdAt: Fixtures.created.addingTimeInterval(2))
        var harness = Harness(size: .standard, items: [done, open, newest])
        let buffer = harness.frame.buffer
        let rows = buffer.lines
        let doneRow = try! #require(rows.firstIndex { $0.contains("Filed taxes") })
        let openRow = try! #require(rows.firstIndex { $0.contains("Renew passport") })
        #expect(buffer.roleMask(.overdue, row: doneRow).isEmpty)
        #expect(!buffer.roleMask(.overdue, row: openRow).isEmpty)
        // The item view too.
        while harness.state.list.selectedItem?.id != done.id { harness.press(.character("j")) }
        harness.press(.enter)
        let view = harness.frame.buffer
        let dueRow = try! #require(view.lines.firstIndex { $0.contains("due 2026-11-01") })
        #expect(view.roleMask(.overdue, row: dueRow).isEmpty)
    }

    @Test func theItemViewOffersDoneOnlyForATask() {
        var harness = Harness(size: .standard)
        harness.press(.enter)  // the pinned packing list, a note
        #expect(!harness.text.contains("x done"))
        harness.press(.escape, .character("j"), .enter)  // a task
        #expect(harness.state.list.selectedItem?.kind == .task)
        #expect(harness.text.contains("x done"))
    }

    @Test(arguments: Size.all)
    func aDeletedItemOpenedFromTheTrashSaysSoAndOffersRestore(size: Size) {
        var harness = Harness(size: size)
        harness.press(.character("j"), .character("d"), .character("T"), .enter)
        assertSnapshot(harness.text, named: "detail-trash-\(size)")
        #expect(harness.text.contains("deleted, in the trash"))
        if size.height >= ScreenChrome.hintsMinimumHeight {
            #expect(harness.text.contains("r restore") && !harness.text.contains("e edit"))
        }
        let id = harness.state.list.selectedID
        harness.press(.character("r"))
        #expect(harness.state.screen == .list)
        #expect(harness.items.first { $0.id == id }?.deleted == false)
    }

    /// Until the trash is read, the status bar does not show the list's position as the trash's.
    @Test func theTrashDoesNotShowTheListsPositionWhileItIsRead() {
        var harness = Harness(size: .standard)
        for _ in 0..<4 { harness.press(.character("j")) }
        _ = harness.state.update(.key(.character("T")))  // its load is not answered yet
        harness.state.notice = nil  // what T says over the bar, to read the bar itself
        let status = harness.frame.buffer.lines.last ?? ""
        #expect(!status.contains("/8"), "\(status)")
        #expect(status.contains("loading…"))
    }

    @Test func editingFromTheItemViewGoesBackToIt() {
        var harness = Harness(size: .standard)
        harness.press(.enter, .character("e"))
        #expect(harness.state.editor != nil)
        harness.type("!")
        harness.press(.control("s"))
        #expect(harness.state.screen == .detail(scroll: 0))
        harness.press(.character("e"), .escape)
        #expect(harness.state.screen == .detail(scroll: 0))
        // From the list, back to the list.
        harness.press(.escape, .character("e"), .escape)
        #expect(harness.state.screen == .list)
    }

    @Test func undoingARestoreSaysItWasARestore() {
        var harness = Harness(size: .standard)
        let title = harness.state.list.selectedItem?.title ?? ""
        harness.press(.character("d"), .character("T"), .character("r"), .character("T"), .character("u"))
        #expect(harness.state.notice?.text == "Undone: restore of “\(title)” (it is back in the trash)")
    }

    @Test func aTagWithASpaceReadsAsOneTag() {
        let item = Item(
            id: Fixtures.id(60), kind: .note, title: "Dune", tags: ["reading list"], createdAt: Fixtures.created)
        var harness = Harness(size: .large, items: [item])
        #expect(harness.text.contains("Dune #\"reading list\""))
        harness.press(.character("#"))
        harness.type("reading list")
        harness.press(.enter)
        #expect(harness.text.contains("#\"reading list\""))
        #expect(!harness.text.contains("#reading list"))
    }

    @Test func theResolvePreviewOfANoteSaysNothingOfOpenOrDone() {
        func note(_ title: String, rev: Int) -> Item {
            Item(
                id: Fixtures.id(70), kind: .note, title: title, body: "a\n", createdAt: Fixtures.created, rev: rev,
                syncState: .needsReview)
        }
        let versions = ReviewVersions(
            itemID: Fixtures.id(70), base: note("Plan", rev: 1), local: note("Plan here", rev: 1),
            remote: note("Plan there", rev: 2))
        var harness = Harness(size: .standard)
        harness.send(.reviewTargetFound(versions.itemID))
        harness.send(.reviewLoaded(id: versions.itemID, versions))
        harness.press(.character("p"))
        #expect(harness.state.resolve?.showsPreview == true)
        #expect(harness.text.contains("note"))
        #expect(!harness.text.contains("· open"))
    }

    @Test func aLongErrorIsShownWholeAndStaysUntilAKey() {
        var harness = Harness(size: .standard)
        let path = "/tmp/quire-edit-0193a9d2-0007-7000-8000-000000000000/a/rather/long/place/packing-list.md"
        let problem = "the due date “2026-13-45” is not a date (YYYY-MM-DD); your text is kept at \(path)"
        harness.send(
            .externalEditFinished(ExternalEditOutcome(id: Fixtures.id(7), before: nil, title: "x", error: problem)))
        // Every row of it, put back together, holds the whole path.
        let rows = harness.frame.buffer.lines.map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(rows.joined().contains(path), "\(harness.text)")
        harness.send(.tick(Fixtures.created.addingTimeInterval(AppState.noticeLifetime * 3)))
        #expect(harness.state.notice?.text == "Editor: " + problem)
        harness.press(.character("j"))
        #expect(harness.state.notice == nil)
    }

    @Test func theSmallestTerminalKeepsLabelsApartAndHelpSaysWhatKeysDo() {
        let status = SyncStatusFixtures.harness(size: Self.small, detail: SyncStatusFixtures.localOnly, depths: [2])
        assertSnapshot(status.text, named: "sync-status-local-20x6")
        #expect(!status.text.contains("remotenone"))
        var harness = Harness(size: Self.small)
        harness.press(.character("?"))
        assertSnapshot(harness.text, named: "help-20x6")
        #expect(harness.text.contains("move down"))
        harness.press(.end)
        if case .help(let scroll) = harness.state.screen {
            #expect(scroll == HelpScreen.maxScroll(size: Self.small) && scroll > 0)
        } else {
            Issue.record("End closed help")
        }
    }
}
