import QuireCore
import TerminalUI

/// What happens once the store has answered a write: undo, notices, closing the editor.
extension AppState {
    mutating func finish(_ intent: WriteIntent, _ result: Result<String, WriteFailure>) -> [Effect] {
        switch result {
        case .failure(let failure):
            if var editor, editor.saving {
                editor.saving = false
                screen = .editor(editor)
            }
            if var history, history.saving {
                history.saving = false
                screen = .history(history)
            }
            notice = Notice(text: "Could not save: \(failure.message)", isError: true)
            return []
        case .success(let id):
            var anchor = id
            switch intent {
            case .create(let kind, let title, _, _):
                closeEditor()
                notice = Notice(text: "Created \(kind.rawValue) “\(title)” · u to undo", isError: false)
            case .edit(_, _, let after):
                let title = after[.title].flatMap(\.text) ?? list.item(withID: id)?.title ?? ""
                closeEditor()
                notice = Notice(text: "Saved “\(title)”", isError: false)
            case .setDone(_, let title, let done):
                notice = Notice(text: (done ? "Done: “" : "Reopened: “") + title + "”", isError: false)
            case .setPinned(_, let title, let pinned):
                notice = Notice(text: (pinned ? "Pinned: “" : "Unpinned: “") + title + "”", isError: false)
            case .delete(_, let title):
                notice = Notice(text: "Deleted “\(title)” · u to undo", isError: false)
                anchor = list.selectedID == id ? "" : (list.selectedID ?? "")
            case .restore(_, let title):
                notice = Notice(text: "Restored “\(title)” · u to undo", isError: false)
                anchor = ""
            case .restoreVersion(_, let title, _, let recordedAt):
                let when = SyncSummary.clockTime(recordedAt, now: now ?? recordedAt, timeZone: timeZone)
                notice = Notice(text: "Restored the version of \(when), “\(title)” · u to undo", isError: false)
                return [reload(anchorID: .some(id))] + finishRestoreVersion(id)
            }
            return [reload(anchorID: .some(anchor.isEmpty ? nil : anchor))]
        }
    }

    mutating func finish(_ outcome: ExternalEditOutcome) -> [Effect] {
        if let error = outcome.error {
            notice = Notice(text: "Editor: \(error)", isError: true)
        } else if outcome.before != nil {
            notice = Notice(text: "Saved “\(outcome.title)” from the editor · u to undo", isError: false)
        } else {
            notice = Notice(text: "No changes", isError: false)
        }
        return [reload(anchorID: .some(outcome.id))]
    }

    private mutating func closeEditor() {
        if editor != nil { screen = .list }
    }
}

extension ListState {
    /// A loaded item by id.
    public func item(withID id: String) -> Item? {
        items.first { $0.id == id }
    }
}

extension FieldValue {
    /// The text of a string value.
    public var text: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}
