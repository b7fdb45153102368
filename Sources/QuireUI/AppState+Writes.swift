import QuireCore
import TerminalUI

/// What happens once the store has answered a write: undo, notices, closing the editor.
extension AppState {
    mutating func finish(_ intent: WriteIntent, _ result: Result<WriteDone, WriteFailure>) -> [Effect] {
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
        case .success(let done):
            let id = done.id
            var anchor = id
            switch intent {
            case .create(let kind, let title, _, _):
                leaveEditor()
                notice = Notice(text: "Created \(kind.rawValue) “\(title)” · u to undo", isError: false)
            case .edit(_, _, let after):
                let title = after[.title].flatMap(\.text) ?? list.item(withID: id)?.title ?? ""
                leaveEditor()
                notice = Notice(text: Self.saved("Saved “\(title)”", met: done.outcome), isError: false)
                if done.outcome == .needsReview { return openReview(id) }
            case .setDone(_, let title, let isDone):
                var text = (isDone ? "Done: “" : "Reopened: “") + title + "”"
                if let next = done.next, let due = next.due {
                    text += " · next: “\(next.title)” due \(due)"
                }
                notice = .info(text)
            case .setPinned(_, let title, let pinned):
                notice = Notice(text: (pinned ? "Pinned: “" : "Unpinned: “") + title + "”", isError: false)
            case .delete(_, let title):
                notice = Notice(text: "Deleted “\(title)” · u to undo", isError: false)
                anchor = list.selectedID == id ? "" : (list.selectedID ?? "")
            case .restore(_, let title):
                notice = Notice(text: "Restored “\(title)” · u to undo", isError: false)
                anchor = ""
            case .purge(_, let title):
                notice = Notice(text: "Deleted “\(title)” for good", isError: false)
                anchor = list.selectedID == id ? "" : (list.selectedID ?? "")
            case .restoreVersion(_, let title, _, _, let recordedAt):
                let when = SyncSummary.clockTime(recordedAt, now: now ?? recordedAt, timeZone: timeZone)
                notice = Notice(
                    text: Self.saved("Restored the version of \(when), “\(title)” · u to undo", met: done.outcome),
                    isError: false)
                if done.outcome == .needsReview { return openReview(id) }
                return [reload(anchorID: .some(id))] + finishRestoreVersion(id)
            }
            return [reload(anchorID: .some(anchor.isEmpty ? nil : anchor))]
        }
    }

    mutating func finish(_ outcome: ExternalEditOutcome) -> [Effect] {
        if let error = outcome.error {
            notice = Notice(text: "Editor: \(error)", isError: true)
        } else if outcome.before != nil {
            notice = Notice(
                text: Self.saved("Saved “\(outcome.title)” from the editor · u to undo", met: outcome.met),
                isError: false)
            if outcome.met == .needsReview { return openReview(outcome.id) }
        } else {
            notice = Notice(text: "No changes", isError: false)
        }
        return [reload(anchorID: .some(outcome.id))]
    }

    /// What the status bar says of a save, and first of all how it met a change made since it
    /// began (the bar cuts long text at its end).
    static func saved(_ text: String, met outcome: SavedWrite.Outcome) -> String {
        switch outcome {
        case .merged: "Merged with a change made meanwhile · " + text
        case .needsReview: "Changed meanwhile in the same place: both kept, choose below"
        case .saved, .unchanged: text
        }
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
