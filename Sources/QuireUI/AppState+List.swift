import QuireCore
import TerminalUI

/// The list: moving the selection, paging through the store, filters, item actions.
extension AppState {
    // MARK: - Loading

    /// A request for the current query that keeps the selection on the selected item.
    func reload(anchorID: String?? = nil, index: Int? = nil, isRefresh: Bool = false) -> Effect {
        .load(
            ListRequest(
                query: list.query, anchorID: anchorID ?? list.selectedID, index: index ?? list.selection,
                visibleRows: visibleRows, isRefresh: isRefresh))
    }

    mutating func apply(_ page: ListPage) -> [Effect] {
        guard page.query == list.query else { return [] }  // an answer to an older query
        if let refresh = page.refresh, refresh.anchorID != list.selectedID || refresh.index != list.selection {
            // Keys moved the selection while the store was read: this answer would move it
            // back. Read again from where it is now.
            return [reload(isRefresh: true)]
        }
        releaseHeldSync()
        let previousSelection = list.selection
        list.total = page.total
        list.moreMatch = page.moreMatch
        // A capped search is counted in full in the background; a refresh counts again (a sync
        // may have brought matches). Until the count arrives the status bar says `500+`.
        var effects: [Effect] = []
        if !page.moreMatch {
            list.matchCount = nil
        } else if list.matchCount?.query != page.query || page.refresh != nil {
            if list.matchCount?.query != page.query { list.matchCount = nil }
            effects.append(.countMatches(page.query))
        }
        list.offset = page.offset
        list.items = page.items
        list.shortIDs = page.shortIDs
        list.loaded = true
        list.rowsQuery = page.query
        list.selection = max(0, min(page.selection, page.total - 1))
        if page.anchorFound {
            // Rows moved above the selected item: move the view with it so it stays put on screen.
            list.top += list.selection - previousSelection
        }
        list.top = ListView.scrolledTop(
            currentTop: list.top, selected: list.selection, height: visibleRows, count: list.total)
        list.selectedID = list.selectedItem?.id
        if case .detail = screen {
            guard let id = list.selectedID else {
                screen = .list
                return effects
            }
            // The item's links as the store now has them (a body, a title, a target changed).
            effects.append(.loadLinks(id: id))
        }
        if let picker = linkPicker, picker.itemID == list.selectedID { effects.append(.loadLinks(id: picker.itemID)) }
        return effects
    }

    /// Moves the selection to a list index and asks for rows the screen now needs.
    mutating func select(_ index: Int) -> [Effect] {
        guard list.total > 0 else { return [] }
        let target = max(0, min(index, list.total - 1))
        list.selection = target
        list.top = ListView.scrolledTop(currentTop: list.top, selected: target, height: visibleRows, count: list.total)
        list.selectedID = list.selectedItem?.id
        return ensureVisibleRowsLoaded()
    }

    mutating func ensureVisibleRowsLoaded() -> [Effect] {
        guard list.loaded else { return [] }
        list.top = ListView.scrolledTop(
            currentTop: list.top, selected: list.selection, height: visibleRows, count: list.total)
        if list.covers(list.top..<(list.top + visibleRows)) { return [] }
        return [
            .load(
                ListRequest(
                    query: list.query, anchorID: nil, index: list.selection, visibleRows: visibleRows, isPaging: true))
        ]
    }

    /// Applies a new query, keeping the selected item if it is still in the list.
    mutating func setQuery(_ query: ListQuery, keepSelection: Bool = true) -> [Effect] {
        list.query = query
        if !keepSelection {
            list.selection = 0
            list.top = 0
            list.selectedID = nil
        }
        return [
            reload(anchorID: keepSelection ? list.selectedID : .some(nil), index: keepSelection ? list.selection : 0)
        ]
    }

    // MARK: - Commands

    mutating func listCommand(_ command: Command) -> [Effect] {
        let page = listLayout.pageHeight
        if list.query.trash, let refused = AppState.refusedInTrash(command) {
            notice = Notice(text: refused, isError: false)
            return []
        }
        switch command {
        case .moveDown: return select(list.selection + 1)
        case .moveUp: return select(list.selection - 1)
        case .moveTop: return select(0)
        case .moveBottom: return select(list.total - 1)
        case .pageDown: return select(list.selection + page)
        case .pageUp: return select(list.selection - page)
        case .open:
            selectedBox = nil
            selectedAttachment = 0
            guard let item = list.selectedItem else { return [] }
            screen = .detail(scroll: 0)
            return [.loadLinks(id: item.id)] + readAttachmentStates()
        case .newNote:
            screen = .editor(EditorState(newItemOf: .note))
            return []
        case .newTask:
            screen = .editor(EditorState(newItemOf: .task))
            return []
        case .search:
            prompt = Prompt(kind: .search, field: TextField(list.query.search), queryBefore: list.query)
            return []
        case .filterKind:
            var query = list.query
            switch query.kind {
            case nil: query.kind = .note
            case .note?: query.kind = .task
            case .task?: query.kind = nil
            }
            return setQuery(query)
        case .filterStatus:
            var query = list.query
            query.status = query.status.next
            return setQuery(query)
        case .toggleTrash:
            var query = list.query
            query.trash.toggle()
            notice = query.trash ? Notice(text: "The trash: r restores, T goes back", isError: false) : nil
            return setQuery(query, keepSelection: false)
        case .restore:
            guard list.query.trash else {
                notice = Notice(text: "Nothing to restore here: T opens the trash", isError: false)
                return []
            }
            guard let item = list.selectedItem else { return [] }
            return [.write(.restore(id: item.id, title: item.title))]
        case .purge:
            return askToPurge()
        case .filterTag:
            let tag = list.query.tag ?? ""
            prompt = Prompt(
                kind: .tag, field: TextField(tag), queryBefore: list.query, replacesOnTyping: !tag.isEmpty)
            return []
        case .back:
            // A view (the agenda's order with it) is the whole query: Esc leaves all of it.
            if list.query.viewName != nil { return setQuery(ListQuery()) }
            if !list.query.search.isEmpty { return setQuery(list.query.withoutSearch) }
            if !list.query.isUnfiltered { return setQuery(ListQuery()) }
            return []
        case .nextNeedingReview:
            return [.findNextNeedingReview(after: list.selectedID)]
        case .syncNow:
            return [.syncNow]
        case .unlock:
            return openUnlock()
        case .syncStatus:
            screen = .syncStatus
            return []
        case .help:
            screen = .help(scroll: 0)
            return []
        case .views:
            return openViews()
        case .cycleOrder:
            var query = list.query
            query.order = ItemOrder.after(query.order)
            notice = .info(
                query.order.map { "Sorted \($0.words) · O for the next order" } ?? "As listed: pinned, then newest")
            return setQuery(query)
        case .agenda:
            return showAgenda()
        case .quit:
            return quit()
        default:
            return itemCommand(command)
        }
    }

    /// `P`: only what is in the trash is deleted for good, and only after a yes.
    mutating func askToPurge() -> [Effect] {
        guard list.query.trash, let item = list.selectedItem else {
            notice = Notice(
                text: "Only an item in the trash can be deleted for good: T opens the trash", isError: false)
            return []
        }
        question = .purge(id: item.id, title: item.title)
        return []
    }

    /// Why a command does not apply in the trash (a deleted item can be read and restored,
    /// not changed), or nil when it does.
    static func refusedInTrash(_ command: Command) -> String? {
        switch command {
        case .edit, .editExternally, .toggleDone, .pin, .delete, .newNote, .newTask, .attachFile:
            "In the trash: r restores the item, T goes back to the list"
        default:
            nil
        }
    }

    /// Commands on the selected item, shared by the list and the item view.
    mutating func itemCommand(_ command: Command) -> [Effect] {
        if command == .undo { return undo() }
        guard let item = list.selectedItem else { return [] }
        switch command {
        case .edit:
            var editor = EditorState(editing: item)
            if case .detail = screen { editor.returnsToItemView = true }
            editor.focus = .body
            editor.body.moveToEnd()
            editor.body.scrollToCursor(width: editorLayout.wrapWidth, height: editorLayout.body.height)
            screen = .editor(editor)
            return []
        case .editExternally:
            return [.editExternally(item)]
        case .toggleDone:
            guard item.kind == .task else {
                notice = Notice(text: "Only tasks have a checkbox", isError: false)
                return []
            }
            return [.write(.setDone(id: item.id, title: item.title, done: !item.done))]
        case .pin:
            return [.write(.setPinned(id: item.id, title: item.title, pinned: !item.pinned))]
        case .delete:
            if case .detail = screen { screen = .list }
            return [.write(.delete(id: item.id, title: item.title))]
        case .history:
            return openHistory(of: item)
        case .toggleMarkdown:
            showsRawText.toggle()
            notice = .info(showsRawText ? "Raw text: m shows it rendered" : "Rendered Markdown: m shows the raw text")
            return []
        default:
            return []
        }
    }

    mutating func detailCommand(_ command: Command) -> [Effect] {
        guard case .detail(let scroll) = screen else { return [] }
        if list.query.trash, let refused = AppState.refusedInTrash(command) {
            notice = Notice(text: refused, isError: false)
            return []
        }
        let page = ScreenChrome(size: size).pageHeight
        switch command {
        case .moveDown: screen = .detail(scroll: scroll + 1)
        case .moveUp: screen = .detail(scroll: max(0, scroll - 1))
        case .pageDown: screen = .detail(scroll: scroll + page)
        case .pageUp: screen = .detail(scroll: max(0, scroll - page))
        case .back: screen = .list
        case .help: screen = .help(scroll: 0)
        case .quit: return quit()
        case .restore:
            // Back on the list: the item leaves the trash, and the view must not move on to
            // whichever item takes its place there.
            guard list.query.trash, let item = list.selectedItem else {
                notice = Notice(text: "Only an item in the trash can be restored", isError: false)
                return []
            }
            screen = .list
            return [.write(.restore(id: item.id, title: item.title))]
        case .purge: return askToPurge()
        case .unlock: return openUnlock()
        case .nextBox, .previousBox, .tickBox: return taskBoxCommand(command)
        case .toggleDone where list.selectedItem?.kind == .note:
            // A note has no checkbox of its own: `x` ticks the selected box of its text, as
            // `b` does (SPEC: a task box in a note can be ticked from the app).
            return taskBoxCommand(.tickBox)
        case .links:
            guard let item = list.selectedItem else { return [] }
            return openLinks(of: item)
        case .linkBack: return followBack()
        case .attachFile, .openAttachment, .saveAttachment, .nextAttachment: return attachmentCommand(command)
        default: return itemCommand(command)
        }
        if case .detail(let wanted) = screen, let item = list.selectedItem {
            screen = .detail(
                scroll: DetailScreen.scroll(
                    wanted, item: item, shownID: list.shownID(of: item), size: size, today: today,
                    markdown: !showsRawText, links: itemLinks))
        }
        return []
    }
}
