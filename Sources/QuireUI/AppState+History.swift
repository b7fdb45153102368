import QuireCore

/// The history view: open it on an item, move through its versions, restore one.
extension AppState {
    public var history: HistoryState? {
        if case .history(let history) = screen { return history }
        return nil
    }

    mutating func openHistory(of item: Item) -> [Effect] {
        screen = .history(HistoryState(itemID: item.id, title: item.title))
        return [.loadHistory(id: item.id)]
    }

    mutating func showHistory(_ id: String, _ result: Result<[HistoryVersion], WriteFailure>) -> [Effect] {
        guard var history, history.itemID == id else { return [] }
        switch result {
        case .success(let versions):
            // Keep the selected version selected when a new one arrives on top.
            let selectedSeq = history.selectedVersion?.seq
            history.versions = versions
            history.loadError = nil
            history.selected =
                history.selectsNewest ? 0 : selectedSeq.flatMap { seq in versions.firstIndex { $0.seq == seq } } ?? 0
            history.selectsNewest = false
            if let newest = versions.first { history.title = newest.item.title }
        case .failure(let failure):
            history.loadError = failure.message
        }
        screen = .history(history)
        return []
    }

    /// A store change may be a new version of the item in view (a sync, another terminal).
    func refreshHistory() -> [Effect] {
        guard let history else { return [] }
        return [.loadHistory(id: history.itemID)]
    }

    mutating func historyCommand(_ command: Command) -> [Effect] {
        guard var history else { return [] }
        let last = max(0, (history.versions?.count ?? 1) - 1)
        if let moved = AppState.selection(after: command, from: history.selected, last: last) {
            history.selected = moved
            screen = .history(history)
            return []
        }
        switch command {
        case .back:
            screen = .list
            return []
        case .quit:
            return quit()
        case .undo:
            return undo()
        case .restoreVersion:
            guard !history.saving else { return [] }
            switch history.restorePlan() {
            case .failure(let why):
                notice = Notice(text: why.message, isError: false)
            case .success(let intent):
                history.saving = true
                screen = .history(history)
                return [.write(intent)]
            }
        default:
            break
        }
        screen = .history(history)
        return []
    }

    /// The answer to a restore written from the history view: the view stays, re-read.
    mutating func finishRestoreVersion(_ id: String) -> [Effect] {
        guard var history, history.itemID == id else { return [] }
        history.saving = false
        history.selectsNewest = true
        screen = .history(history)
        return [.loadHistory(id: id)]
    }
}
