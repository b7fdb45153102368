import Foundation
import QuireCore
import QuireUI
import TerminalUI
import Testing

@Suite struct ListBehaviourTests {
    static func many(_ count: Int) -> [Item] {
        (1...count).map { n in
            Item(
                id: Fixtures.id(n), kind: n % 3 == 0 ? .task : .note, title: "Item \(n)",
                tags: n % 10 == 0 ? ["ten"] : [], createdAt: Fixtures.created, syncState: .synced)
        }
    }

    @Test func theListIsPagedNotLoadedWhole() {
        var harness = Harness(size: .standard, items: Self.many(5000))
        #expect(harness.state.list.total == 5000)
        #expect(harness.state.list.items.count <= 100)
        harness.press(.character("G"))
        #expect(harness.state.list.selection == 4999)
        #expect(harness.state.list.selectedItem?.title == "Item 1")
        #expect(harness.state.list.items.count <= 100)
        #expect(harness.frame.buffer.lines.contains { $0.hasPrefix(">") && $0.hasSuffix("Item 1") })
    }

    @Test func aStoreChangeRefreshesAndKeysPageWithoutARecount() throws {
        var harness = Harness(size: .standard, items: Self.many(500))
        harness.effects = []
        harness.send(.storeChanged)
        guard case .load(let refresh) = try #require(harness.effects.first) else {
            Issue.record("a store change loads the list again")
            return
        }
        #expect(refresh.isRefresh && !refresh.isPaging)
        harness.effects = []
        for _ in 0..<10 { harness.press(.pageDown) }
        let loads = harness.effects.compactMap { effect -> ListRequest? in
            if case .load(let request) = effect { return request }
            return nil
        }
        #expect(!loads.isEmpty && loads.allSatisfy { $0.isPaging && !$0.isRefresh })
    }

    @Test func aRefreshThatAnswersAfterKeysMovedTheSelectionIsReadAgain() throws {
        var harness = Harness(size: .standard, items: Self.many(500))
        // The store changed: the refresh is asked for, but its answer is not in yet.
        guard case .load(let request) = try #require(harness.state.update(.storeChanged).first) else {
            Issue.record("a store change loads the list again")
            return
        }
        let stale = harness.page(for: request)
        harness.press(.character("j"), .character("j"))
        let selected = harness.state.list.selectedID
        #expect(harness.state.list.selection == 2)
        // The refresh asked for before the keys arrives now: it must not pull the selection back.
        let effects = harness.state.update(.listLoaded(stale))
        #expect(harness.state.list.selection == 2)
        #expect(harness.state.list.selectedID == selected)
        guard case .load(let again) = try #require(effects.first) else {
            Issue.record("the list is read again from the new selection")
            return
        }
        #expect(again.isRefresh && again.anchorID == selected && again.index == 2)
        // Answered from where the selection is now, it applies.
        harness.run(effects)
        #expect(harness.state.list.selection == 2)
        #expect(harness.state.list.selectedID == selected)
    }

    @Test func movingWithinTheLoadedWindowNeedsNoQuery() {
        var harness = Harness(size: .standard, items: Self.many(500))
        let loadsBefore = harness.effects.count
        harness.press(.character("j"), .character("j"), .down, .character("k"))
        #expect(harness.effects.count == loadsBefore)
        #expect(harness.state.list.selection == 2)
    }

    @Test func pagingMovesByAScreenAndLoadsWhenNeeded() {
        var harness = Harness(size: .standard, items: Self.many(500))
        let rows = harness.state.visibleRows
        for _ in 0..<10 { harness.press(.pageDown) }
        #expect(harness.state.list.selection == 10 * (rows - 1))
        #expect(harness.state.list.covers(harness.state.list.top..<(harness.state.list.top + rows)))
        #expect(harness.effects.contains { if case .load = $0 { true } else { false } })
        harness.press(.pageUp)
        #expect(harness.state.list.selection == 9 * (rows - 1))
        harness.press(.character("g"))
        #expect(harness.state.list.selection == 0 && harness.state.list.top == 0)
    }

    @Test func theSelectionStaysOnItsItemWhenRowsArriveAbove() {
        var harness = Harness(size: .standard, items: Self.many(50))
        harness.press(.character("j"), .character("j"), .character("j"))
        let selected = harness.state.list.selectedID
        let screenRow = harness.state.list.selection - harness.state.list.top
        harness.items.append(Item(id: Fixtures.id(900), title: "Newer", createdAt: Fixtures.created))
        harness.items.append(Item(id: Fixtures.id(901), title: "Newest", createdAt: Fixtures.created))
        harness.send(.storeChanged)
        #expect(harness.state.list.selectedID == selected)
        #expect(harness.state.list.selection == 5)
        #expect(harness.state.list.selection - harness.state.list.top == screenRow)
    }

    @Test func whenTheSelectedItemGoesTheSelectionKeepsItsPlace() {
        var harness = Harness(size: .standard, items: Self.many(20))
        harness.press(.character("j"), .character("j"))
        let gone = harness.state.list.selectedID!
        harness.items.removeAll { $0.id == gone }
        harness.send(.storeChanged)
        #expect(harness.state.list.selection == 2)
        #expect(harness.state.list.selectedID != gone)
    }

    @Test func searchFiltersAsThePersonTypes() {
        var harness = Harness(size: .standard)
        harness.press(.character("/"))
        harness.type("mil")
        #expect(harness.state.list.query.search == "mil")
        #expect(harness.state.list.total == 1)
        #expect(harness.state.list.selectedItem?.title == "Buy milk")
        harness.press(.backspace, .backspace, .backspace)
        #expect(harness.state.list.total == Fixtures.items.count)
        harness.type("日本")
        #expect(harness.state.list.selectedItem?.title == "日本語のメモ")
        harness.press(.enter)
        #expect(harness.state.prompt == nil)
        #expect(harness.state.list.query.search == "日本")
        harness.press(.escape)
        #expect(harness.state.list.query.search == "")
        #expect(harness.state.list.total == Fixtures.items.count)
    }

    /// `/` takes the filter language: terms narrow as they are typed, and a term half typed
    /// keeps the last list that read while the prompt says why.
    @Test func theSearchIsAFilterAndSaysWhenATermDoesNotRead() {
        var harness = Harness(size: .standard)
        harness.press(.character("/"))
        harness.type("kind:task")
        #expect(harness.state.list.total == 4)
        harness.type(" status:")
        #expect(harness.state.prompt?.error?.contains("status is open, done or waiting") == true)
        // The last text that read: "status" was a free word one key earlier.
        #expect(harness.state.list.query.search == "kind:task status")
        #expect(harness.state.list.total == 0)
        #expect(harness.text.contains("'status:': status is open, done or waiting"))
        harness.type("open")
        #expect(harness.state.prompt?.error == nil)
        #expect(harness.state.list.total == 3)
        harness.press(.escape)
        #expect(harness.state.list.query.isUnfiltered)
        #expect(harness.state.list.total == Fixtures.items.count)
    }

    @Test func searchKeysAreTextNotCommands() {
        var harness = Harness(size: .standard)
        harness.press(.character("/"))
        harness.type("qd")
        #expect(!harness.state.quitting)
        #expect(harness.state.list.query.search == "qd")
        #expect(harness.effects.allSatisfy { if case .write = $0 { false } else { true } })
        #expect(!harness.items.contains { $0.deleted })
    }

    @Test func filtersCycleAndCombine() {
        var harness = Harness(size: .standard)
        harness.press(.character("f"))
        #expect(harness.state.list.query.kind == .note)
        #expect(harness.state.list.total == 4)
        harness.press(.character("f"))
        #expect(harness.state.list.query.kind == .task)
        harness.press(.character("o"))
        #expect(harness.state.list.query.status == .open)
        #expect(harness.state.list.total == 3)
        harness.press(.character("o"))
        #expect(harness.state.list.total == 1)
        #expect(harness.text.contains("tasks · done"))
        harness.press(.escape)
        #expect(harness.state.list.query.isUnfiltered)
    }

    @Test func tagPromptFiltersOnEnter() {
        var harness = Harness(size: .standard)
        harness.press(.character("#"))
        harness.type("#travel")
        #expect(harness.state.list.query.tag == nil)
        harness.press(.enter)
        #expect(harness.state.list.query.tag == "travel")
        #expect(harness.state.list.total == 1)
        harness.press(.character("#"), .backspace, .backspace, .backspace, .backspace, .backspace, .backspace, .enter)
        #expect(harness.state.list.query.tag == nil)
    }

    @Test func toggleDonePinDeleteAndUndoThemInTurn() {
        var harness = Harness(size: .standard)
        // Select "Buy milk".
        harness.press(.character("/"))
        harness.type("milk")
        harness.press(.enter)
        let id = harness.state.list.selectedID!
        harness.press(.character("x"))
        #expect(harness.items.first { $0.id == id }?.done == true)
        #expect(harness.text.contains("Done: “Buy milk”"))
        harness.press(.character("p"))
        #expect(harness.items.first { $0.id == id }?.pinned == true)
        harness.press(.character("d"))
        #expect(harness.items.first { $0.id == id }?.deleted == true)
        #expect(harness.state.list.total == 0)
        harness.press(.character("u"))
        #expect(harness.items.first { $0.id == id }?.deleted == false)
        #expect(harness.state.list.selectedID == id)
        harness.press(.character("u"))
        #expect(harness.items.first { $0.id == id }?.pinned == false)
        harness.press(.character("u"))
        #expect(harness.items.first { $0.id == id }?.done == false)
        harness.press(.character("u"))
        #expect(harness.text.contains("Nothing to undo"))
    }

    @Test func notesHaveNoCheckbox() {
        var harness = Harness(size: .standard)
        // The pinned note is first.
        harness.press(.character("x"))
        #expect(harness.text.contains("Only tasks have a checkbox"))
        #expect(harness.effects.allSatisfy { if case .write = $0 { false } else { true } })
    }

    @Test func syncKeysAskTheRuntime() {
        var harness = Harness(size: .standard)
        harness.press(.character("s"))
        #expect(harness.effects.last == .syncNow)
        harness.press(.character("c"))
        #expect(harness.effects.last == .findNextNeedingReview(after: harness.state.list.selectedID))
        harness.send(.reviewTargetFound(nil))
        #expect(harness.text.contains("Nothing needs review"))
        harness.send(.reviewTargetFound(Fixtures.id(5)))
        #expect(harness.state.list.selectedID == Fixtures.id(5))
    }

    @Test func quitIsAnEffect() {
        var harness = Harness(size: .standard)
        harness.press(.character("q"))
        #expect(harness.state.quitting)
        #expect(harness.effects.last == .quit)
    }

    @Test func aTooSmallTerminalOnlyListensForQuit() {
        var harness = Harness(size: Size(width: 15, height: 4))
        harness.press(.character("a"))
        #expect(harness.state.screen == .list)
        harness.send(.resized(.standard))
        #expect(harness.text.contains("Ideas for the garden"))
        harness.send(.resized(Size(width: 15, height: 4)))
        harness.press(.character("q"))
        #expect(harness.state.quitting)
    }

    @Test func resizingKeepsTheSelectionVisible() {
        var harness = Harness(size: .standard, items: Self.many(200))
        for _ in 0..<30 { harness.press(.character("j")) }
        harness.send(.resized(.small))
        let list = harness.state.list
        #expect(list.selection >= list.top && list.selection < list.top + harness.state.visibleRows)
        #expect(harness.frame.buffer.lines.contains { $0.hasPrefix(">") && $0.contains("Item 170") })
    }

    /// The item view scrolls by rows and stops with the last row at the bottom, and draws the
    /// rows of a full wrap of the item from where it is scrolled, for a 1 MiB note as for a
    /// short one (it reads the body only down to the rows it shows).
    @Test func theItemViewScrollsARowAtATimeAndStopsAtTheEnd() {
        let line = "A line of a long note, long enough to wrap on an 80-column screen, then more words.\n"
        let huge = String(repeating: line, count: (1 << 20) / line.utf8.count) + "The last line."
        let short = (1...60).map { "line \($0)" }.joined(separator: "\n")
        for body in [short, huge] {
            let item = Item(id: Fixtures.id(1), kind: .note, title: "Long", body: body, createdAt: Fixtures.created)
            var harness = Harness(size: .standard, items: [item])
            harness.press(.enter)
            let area = ScreenChrome(size: .standard).content.inset(horizontal: 1)
            let shownID = harness.state.list.shownID(of: item)
            let rows = Paragraph(ItemDetails.lines(item, today: Fixtures.today, shownID: shownID)).rows(
                width: area.width)
            func expectRows(from scroll: Int) {
                let shown = harness.text.split(separator: "\n", omittingEmptySubsequences: false)
                    .dropFirst(area.y).prefix(area.height).map { String($0.dropFirst(area.x)) }
                let wanted = rows.dropFirst(scroll).prefix(area.height).map { row in
                    var text = row.plainText
                    while text.hasSuffix(" ") { text.removeLast() }
                    return text
                }
                #expect(Array(shown.prefix(wanted.count)) == wanted, "scroll \(scroll)")
            }
            expectRows(from: 0)
            harness.press(.character("j"), .character("j"), .pageDown)
            let page = ScreenChrome(size: .standard).pageHeight
            #expect(harness.state.screen == .detail(scroll: 2 + page))
            expectRows(from: 2 + page)
            guard body == short else { continue }
            for _ in 0..<20 { harness.press(.pageDown) }
            #expect(harness.state.screen == .detail(scroll: rows.count - area.height))
            expectRows(from: rows.count - area.height)
        }
    }

    @Test func staleAnswersAreIgnored() {
        var harness = Harness(size: .standard)
        let old = ListPage(
            query: ListQuery(search: "zzz"), total: 0, offset: 0, items: [], selection: 0, anchorFound: false)
        harness.send(.listLoaded(old))
        #expect(harness.state.list.total == Fixtures.items.count)
    }

    @Test func enterOpensTheItemAndEscComesBack() {
        var harness = Harness(size: .standard)
        harness.press(.enter)
        #expect(harness.state.screen == .detail(scroll: 0))
        #expect(harness.text.contains("passport"))
        harness.press(.escape)
        #expect(harness.state.screen == .list)
    }

    @Test func syncingFromSGoesOnceTheRoundItAskedForIsOver() {
        var harness = Harness(size: .standard)
        harness.send(.syncChanged(SyncSummary(connection: .idle, pending: 1)))
        // A round is running when `s` is pressed: the one `s` asked for is the next.
        harness.send(.syncWorkerChanged(SyncWorkerState(connection: .syncing, roundsStarted: 3, roundsFinished: 2)))
        harness.send(.notice(.syncStarted))
        harness.send(.syncWorkerChanged(SyncWorkerState(connection: .idle, roundsStarted: 3, roundsFinished: 3)))
        #expect(harness.frame.buffer.lines.last!.contains(AppState.syncStartedNotice), "still going")
        harness.send(.syncWorkerChanged(SyncWorkerState(connection: .syncing, roundsStarted: 4, roundsFinished: 3)))
        harness.send(
            .syncWorkerChanged(
                SyncWorkerState(
                    connection: .offline, nextRetry: Fixtures.created.addingTimeInterval(2), roundsStarted: 4,
                    roundsFinished: 4)))
        let last = harness.frame.buffer.lines.last!
        #expect(!last.contains(AppState.syncStartedNotice))
        #expect(last.hasSuffix("1 pending · offline, retrying in 2s"))
        // Other notices are left alone.
        harness.send(.notice(.info("Created note")))
        harness.send(.syncWorkerChanged(SyncWorkerState(connection: .idle, roundsStarted: 5, roundsFinished: 5)))
        #expect(harness.frame.buffer.lines.last!.contains("Created note"))
    }

    /// A notice goes through `update` on the clock's tick once its time is up, counted from the
    /// tick it appeared at; the notice of a sync round waits for the round instead.
    @Test func aNoticeGoesOnTheTickAfterItsLifetime() {
        var harness = Harness(size: .standard)
        harness.send(.notice(.info("Created note")))
        harness.send(.tick(Fixtures.created.addingTimeInterval(AppState.noticeLifetime - 0.5)))
        #expect(harness.state.notice?.text == "Created note")
        #expect(harness.state.tickChangesScreen(at: Fixtures.created.addingTimeInterval(AppState.noticeLifetime)))
        harness.send(.tick(Fixtures.created.addingTimeInterval(AppState.noticeLifetime)))
        #expect(harness.state.notice == nil)
        harness.send(.notice(.syncStarted))
        harness.send(.tick(Fixtures.created.addingTimeInterval(AppState.noticeLifetime * 3)))
        #expect(harness.state.notice == .syncStarted)
    }

    @Test func theStatusBarShowsTheSyncLine() {
        var harness = Harness(size: .standard)
        let offline = SyncSummary(connection: .offline, pending: 3, nextRetry: Fixtures.created.addingTimeInterval(8))
        harness.send(.syncChanged(offline))
        let last = harness.frame.buffer.lines.last!
        #expect(last.hasSuffix("3 pending · offline, retrying in 8s"))
        #expect(!harness.frame.buffer.roleMask(.statusError, row: Size.standard.height - 1).contains("^"))
        harness.send(.syncChanged(SyncSummary(connection: .idle, needsReview: 1)))
        #expect(harness.frame.buffer.lines.last!.hasSuffix("1 needs review · press c"))
        #expect(harness.frame.buffer.roleMask(.statusError, row: Size.standard.height - 1).contains("^"))
    }

    /// Every screen's areas and its PgDn step come from one chrome, so paging moves by what is shown.
    @Test func theChromeShowsHintsWhenTallEnoughAndPagesByItsContent() {
        let tall = ScreenChrome(size: Size(width: 40, height: 12), headerRows: 1)
        #expect(tall.header == Rect(x: 0, y: 0, width: 40, height: 1))
        #expect(tall.content == Rect(x: 0, y: 1, width: 40, height: 9))
        #expect(tall.hints == Rect(x: 0, y: 10, width: 40, height: 1))
        #expect(tall.status == Rect(x: 0, y: 11, width: 40, height: 1))
        #expect(tall.pageHeight == 8)
        let short = ScreenChrome(size: Size(width: 40, height: 9))
        #expect(short.hints == nil && short.content.height == 8 && short.status.y == 8)
        #expect(ScreenChrome(size: Size(width: 40, height: 12), hasHints: false).hints == nil)

        var harness = Harness(size: .standard)
        harness.press(.character("?"), .pageDown)
        let page = HelpScreen.chrome(size: .standard).pageHeight
        #expect(harness.state.screen == .help(scroll: min(page, HelpScreen.maxScroll(size: .standard))))
    }
}

/// The trash: deleted items, read and restored, never changed there.
@Suite struct TrashTests {
    @Test func deletedItemsAreInTheTrashAndComeBackWithR() throws {
        var harness = Harness(size: .standard)
        let title = try #require(harness.state.list.selectedItem?.title)
        harness.press(.character("d"))
        #expect(!harness.state.list.items.contains { $0.title == title })
        harness.press(.character("T"))
        #expect(harness.state.list.query.trash)
        #expect(harness.state.list.total == 1)
        #expect(harness.state.list.items.map(\.title) == [title])
        #expect(harness.text.contains("The trash: r restores, T goes back"))
        harness.press(.character("j"))  // the notice goes with the next key
        #expect(harness.text.split(separator: "\n").last?.contains("1/1 · trash") == true)
        // Changing a deleted item is refused with the way out.
        harness.press(.character("e"))
        #expect(harness.state.notice?.text.contains("r restores") == true)
        #expect(harness.state.screen == .list)
        harness.press(.character("r"))
        #expect(harness.state.notice?.text == "Restored “\(title)” · u to undo")
        #expect(harness.state.list.total == 0)
        #expect(harness.text.contains("The trash is empty."))
        harness.press(.character("T"))
        #expect(!harness.state.list.query.trash)
        #expect(harness.state.list.items.contains { $0.title == title })
        // Undo puts it back in the trash.
        harness.press(.character("u"))
        #expect(harness.items.first { $0.title == title }?.deleted == true)
    }

    /// `P` deletes an item of the trash for good, after a yes; outside the trash it says where.
    @Test func purgeInTheTrashAsksFirstThenDeletesForGood() throws {
        var harness = Harness(size: .standard)
        let item = try #require(harness.state.list.selectedItem)
        let count = harness.items.count
        harness.press(.character("P"))
        #expect(
            harness.state.notice?.text == "Only an item in the trash can be deleted for good: T opens the trash")
        #expect(harness.state.question == nil)
        harness.press(.character("d"), .character("T"), .character("P"))
        #expect(harness.state.question == .purge(id: item.id, title: item.title))
        #expect(harness.text.contains("for good, on every device?"))
        harness.press(.character("n"))
        #expect(harness.state.question == nil)
        #expect(harness.items.count == count, "no keeps it")
        harness.press(.enter, .character("P"), .character("y"))
        #expect(harness.items.count == count - 1)
        #expect(!harness.items.contains { $0.id == item.id })
        #expect(harness.state.notice?.text == "Deleted “\(item.title)” for good")
        #expect(harness.state.screen == .list, "from the item view, back to the trash")
        #expect(harness.text.contains("The trash is empty."))
    }

    @Test func restoreOutsideTheTrashSaysWhereItIs() {
        var harness = Harness(size: .standard)
        harness.press(.character("r"))
        #expect(harness.state.notice?.text == "Nothing to restore here: T opens the trash")
    }

    /// `f` and `o` combine: notes stay notes when the status filter changes.
    @Test func kindAndStatusFiltersCombine() {
        var harness = Harness(size: .standard)
        harness.press(.character("f"), .character("f"))
        #expect(harness.state.list.query.kind == .task)
        harness.press(.character("o"))
        #expect(harness.state.list.query.kind == .task)
        #expect(harness.state.list.query.status == .open)
        harness.press(.character("f"), .character("f"))
        #expect(harness.state.list.query.kind == .note)
        #expect(harness.state.list.query.status == .open)
    }
}
