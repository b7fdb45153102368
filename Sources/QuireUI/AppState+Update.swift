import Foundation
import QuireCore
import TerminalUI

/// The update function: every message becomes a new state plus effects for the runtime.
/// Pure: no I/O, no clock, no randomness.
extension AppState {
    /// The effects to run when the app starts: load the first page.
    public mutating func start() -> [Effect] {
        [reload(index: 0)]
    }

    public mutating func update(_ message: Message) -> [Effect] {
        switch message {
        case .key(let key):
            let wasShowingSyncStatus = screen == .syncStatus
            let effects = handle(key)
            return !wasShowingSyncStatus && screen == .syncStatus ? effects + syncStatusOpened() : effects
        case .paste(let text):
            return paste(text)
        case .unlockFinished(let outcome):
            return finishUnlock(outcome)
        case .resized(let newSize):
            size = newSize
            return ensureVisibleRowsLoaded()
        case .storeChanged:
            listRereadSince = now ?? .distantPast
            return [reload(isRefresh: true)] + syncStatusStoreChanged() + refreshReview() + refreshHistory()
                + refreshEditor()
        case .syncRecordsChanged:
            return syncStatusStoreChanged() + readAttachmentStates()
        case .listLoaded(let page):
            // The item view's files may have changed with the page (attached, uploaded, fetched).
            return apply(page) + readAttachmentStates()
        case .restoreDraft(let editor):
            screen = .editor(editor)
            notice = .info("Unsaved text from last time · ctrl-s saves it, esc discards it")
            return []
        case .written(let intent, let result):
            return finish(intent, result)
        case .externalEditFinished(let outcome):
            return finish(outcome)
        case .syncChanged(let summary):
            // The status bar's counts come from the commit the list is being read again for:
            // shown with that page, so a row's badge and the status bar change in one frame.
            if listRereadSince != nil {
                heldSync = summary
                return []
            }
            showSync(summary)
            return []
        case .syncWorkerChanged(let worker):
            syncWorker = worker
            showSync(sync)
            // "Syncing…" from `s` goes once the round it asked for is over; the sync line says how.
            if let target = syncNowTarget, worker.roundsFinished >= target {
                syncNowTarget = nil
                if notice?.kind == .syncRound { notice = nil }
            }
            return []
        case .tick(let time):
            now = time
            // A read that never answers (it failed, and said so) must not hold the status bar.
            if let since = listRereadSince, time.timeIntervalSince(since) >= 1 { releaseHeldSync() }
            if noticeExpired(at: time) { notice = nil }
            return []
        case .notice(let shown):
            notice = shown
            // The round `s` asked for is the next to start, even when one is running now.
            if shown.kind == .syncRound { syncNowTarget = (syncWorker?.roundsStarted ?? 0) + 1 }
            return []
        case .completionsFound(let kind, let prefix, let words):
            switch kind {
            case .tag: return complete(prefix, with: words)
            case .title: return completeTitle(prefix, with: words)
            case .path: return completePath(prefix, with: words)
            }
        case .attachmentStatesRead(let states):
            showAttachmentStates(states)
            return []
        case .attachmentAnswered(let answer):
            return finishAttachment(answer)
        case .undone(let result):
            return finishUndo(result)
        case .matchesCounted(let query, let count):
            if query == list.query { list.matchCount = MatchCount(query: query, count: count) }
            return []
        case .editedItemRead(let id, let item):
            if var editor, editor.itemID == id, !editor.saving {
                editor.compare(withStored: item)
                screen = .editor(editor)
            }
            return []
        case .linksLoaded(let id, let entries):
            showLinks(id, entries)
            return []
        case .historyLoaded(let id, let result):
            return showHistory(id, result)
        case .savedViewsLoaded(let loaded):
            return showViews(loaded)
        case .reviewTargetFound(let id):
            return openReview(id)
        case .reviewLoaded(let id, let versions):
            return showReview(id, versions)
        case .resolveFinished(let id, let error):
            return finishResolve(id, error: error)
        case .syncStatus(let event):
            return handleSyncStatus(event)
        case .today(let day):
            today = day
            return []
        }
    }

    // MARK: - Keys

    private mutating func handle(_ key: Key) -> [Effect] {
        if isTooSmall {
            if key == .character("q") || key == .control("c") { return quit() }
            if key == .control("z") { return [.suspendToShell] }
            return []
        }
        notice = nil
        let context = keyContext
        let command = Keymap.command(for: key, in: context)
        if command == .suspend { return [.suspendToShell] }
        switch context {
        case .confirm:
            return answer(command)
        case .prompt:
            if unlock != nil { return unlockKey(key, command) }
            return promptKey(key, command)
        case .editor:
            if case .resolve = screen { return resolveEditorKey(key, command) }
            return editorKey(key, command)
        case .list:
            guard let command else { return [] }
            return listCommand(command)
        case .detail:
            guard let command else { return [] }
            return detailCommand(command)
        case .help:
            guard let command else { return [] }
            return helpCommand(command)
        case .syncStatus:
            guard let command else { return [] }
            return syncStatusScreenCommand(command)
        case .resolve:
            guard let command else { return [] }
            return resolveCommand(command)
        case .history:
            guard let command else { return [] }
            return historyCommand(command)
        case .views:
            guard let command else { return [] }
            return viewsCommand(command)
        case .links:
            guard let command else { return [] }
            return linksCommand(command)
        }
    }

    /// Where a moving command takes the selection of a list of rows `0...last` (history,
    /// views); nil for any other command.
    static func selection(after command: Command, from selected: Int, last: Int) -> Int? {
        switch command {
        case .moveDown: min(last, selected + 1)
        case .moveUp: max(0, selected - 1)
        case .moveTop: 0
        case .moveBottom: last
        default: nil
        }
    }

    mutating func quit() -> [Effect] {
        quitting = true
        return [.quit]
    }

    private mutating func helpCommand(_ command: Command) -> [Effect] {
        guard case .help(let scroll) = screen else { return [] }
        let page = HelpScreen.chrome(size: size).pageHeight
        switch command {
        case .moveDown: screen = .help(scroll: scroll + 1)
        case .moveUp: screen = .help(scroll: max(0, scroll - 1))
        case .pageDown: screen = .help(scroll: scroll + page)
        case .pageUp: screen = .help(scroll: max(0, scroll - page))
        case .moveTop: screen = .help(scroll: 0)
        case .moveBottom: screen = .help(scroll: HelpScreen.maxScroll(size: size))
        case .back: screen = .list
        case .quit: return quit()
        default: break
        }
        if case .help(let wanted) = screen {
            screen = .help(scroll: min(wanted, HelpScreen.maxScroll(size: size)))
        }
        return []
    }

    private mutating func answer(_ command: Command?) -> [Effect] {
        switch (question, command) {
        case (.discardChanges?, .confirm?):
            question = nil
            leaveEditor()
        case (.dropResolveChoices?, .confirm?):
            question = nil
            screen = .list
        case (.discardChanges?, .decline?), (.dropResolveChoices?, .decline?):
            question = nil
        case (.discardDeadLetter(let letter)?, .confirm?):
            question = nil
            return [.syncStatus(.discard(letter))]
        case (.discardDeadLetter?, .decline?), (.purge?, .decline?), (.replaceFile?, .decline?):
            question = nil
        case (.replaceFile(let file, let path)?, .confirm?):
            question = nil
            return [.attachments(.save(file, to: path, replacing: true))]
        case (.purge(let id, let title)?, .confirm?):
            question = nil
            if case .detail = screen { screen = .list }
            return [.write(.purge(id: id, title: title))]
        default:
            break
        }
        return []
    }

    // MARK: - Sync summary

    /// Shows the store's counts with the worker's state over them.
    mutating func showSync(_ summary: SyncSummary) {
        let combined = syncWorker?.applied(to: summary) ?? summary
        recordSyncSummary(combined)
        sync = combined
    }

    /// Whether the notice on screen has been there `noticeLifetime` at `time`. The notice of a
    /// sync round stays until the round ends, and an error until the next key: it may say where
    /// text was kept, which must not fade before it is read.
    func noticeExpired(at time: Date) -> Bool {
        guard let notice, notice.kind == .info, let since = noticeSince else { return false }
        return time.timeIntervalSince(since) >= AppState.noticeLifetime
    }

    /// Whether a tick at `time` would change what is on screen: the sync line's words (a
    /// countdown, a new minute) or a notice's time being up. The runtime ticks only then.
    public func tickChangesScreen(at time: Date) -> Bool {
        noticeExpired(at: time) || syncLine(at: time) != syncLine
    }

    /// The list has been read again after a store change: the summary of that change shows now.
    mutating func releaseHeldSync() {
        listRereadSince = nil
        if let held = heldSync {
            heldSync = nil
            showSync(held)
        }
    }

    // MARK: - Undo

    /// `u`: the store keeps what can be taken back (its history), so undo survives a restart.
    mutating func undo() -> [Effect] {
        [.undo]
    }

    mutating func finishUndo(_ result: Result<UndoneAction?, WriteFailure>) -> [Effect] {
        switch result {
        case .failure(let failure):
            notice = Notice(text: "Could not undo: \(failure.message)", isError: true)
            return []
        case .success(nil):
            notice = Notice(text: "Nothing to undo", isError: false)
            return []
        case .success(let undone?):
            if var history, undone.plan.wroteAChange {
                history.selectsNewest = true
                screen = .history(history)
            }
            notice = Notice(text: undone.text, isError: !undone.plan.wroteAChange)
            if undone.met == .needsReview { return openReview(undone.itemID) }
            switch undone.plan {
            case .remove, .deleteAgain: return [reload(anchorID: .some(nil))] + refreshHistory()
            case .cannot: return []
            case .revert, .undelete: return [reload(anchorID: .some(undone.itemID))] + refreshHistory()
            }
        }
    }
}
