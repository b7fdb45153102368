import Dispatch
import Foundation
import QuireCore
import QuireStore
import QuireUI

/// Keeping the editor's unsaved text in the store (see `Draft`) and offering it back at the
/// next start. Everything here runs on the UI queue, which owns `DraftKeeper`.
extension AppRuntime {
    /// How long after a key the draft is written: typing costs one store write a beat, and a
    /// crash loses at most this much.
    static let draftDelay: DispatchTimeInterval = .milliseconds(300)

    /// After every processed batch of messages: schedules a write of the editor's text, or
    /// forgets the draft once the editor has closed (saved or discarded). The text itself is
    /// read only when the write is due, so a key costs nothing here.
    func keepDraftSoon() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard let drafts = environment.drafts, !draftKeeper.scheduled else { return }
        if case .editor = state.screen {
            draftKeeper.scheduled = true
            queue.asyncAfter(deadline: .now() + Self.draftDelay) { [weak self] in
                guard let self, !isStoppedOnQueue else { return }
                draftKeeper.scheduled = false
                keepDraft(in: drafts)
            }
        } else {
            keepDraft(in: drafts)
        }
    }

    /// Writes the editor's text, or forgets the draft when the editor has closed.
    /// `offeringNext`: then opens the next kept draft once this one is gone (not when ending).
    private func keepDraft(in drafts: any DraftStore, offeringNext: Bool = true) {
        if case .editor = state.screen {
            writeDraftNow(drafts)
        } else if let written = draftKeeper.written {
            try? drafts.removeDraft(itemID: written.itemID)
            draftKeeper.written = nil
            if offeringNext { offerNextDraft() }
        }
    }

    /// Writes the editor's text at once: the app is about to end (a signal, or quitting).
    func keepDraftNow() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard let drafts = environment.drafts else { return }
        keepDraft(in: drafts, offeringNext: false)
    }

    private func writeDraftNow(_ drafts: any DraftStore) {
        guard let draft = currentDraft(), draft != draftKeeper.written else { return }
        do {
            try drafts.saveDraft(draft)
            draftKeeper.written = draft
        } catch {
            process([.notice(.error("Cannot keep a draft: \(error)"))])
        }
    }

    /// The editor's text as a draft; nil when no editor is open or nothing was typed.
    private func currentDraft() -> Draft? {
        guard case .editor(let editor) = state.screen, editor.hasChanges else { return nil }
        return Draft(
            itemID: editor.itemID, kind: editor.kind, title: editor.title.text, body: editor.body.text,
            originalTitle: editor.originalTitle, originalBody: editor.originalBody, details: editor.details.text,
            originalDetails: editor.originalDetails)
    }

    /// At start: reads the drafts a previous run left, to offer them one at a time.
    func loadDraftsToOffer() {
        guard let drafts = environment.drafts, let kept = try? drafts.drafts() else { return }
        draftKeeper.toOffer = kept.filter { draft in
            // A save that reached the store just before the end leaves a draft equal to the item.
            guard let id = draft.itemID, let item = try? environment.items.item(id) else { return true }
            let detailsDiffer =
                draft.details != draft.originalDetails
                && DetailsLine.text(DetailsLine.Values(of: item)) != draft.details
            return item.title != draft.title || item.body != draft.body || detailsDiffer
        }
        offerNextDraft()
    }

    /// Opens the next kept draft in the editor, when the list is showing.
    private func offerNextDraft() {
        guard case .list = state.screen, !draftKeeper.toOffer.isEmpty else { return }
        let draft = draftKeeper.toOffer.removeFirst()
        draftKeeper.written = draft
        let editor = EditorState(
            restoring: draft.itemID, kind: draft.kind, title: draft.title, body: draft.body,
            originalTitle: draft.originalTitle, originalBody: draft.originalBody, details: draft.details,
            originalDetails: draft.originalDetails)
        process([.restoreDraft(editor)])
    }
}

/// What the draft machinery remembers between keys; owned by the runtime's UI queue.
final class DraftKeeper {
    /// The draft last written to the store (or restored from it).
    var written: Draft?
    /// A write is scheduled.
    var scheduled = false
    /// Drafts of an earlier run not offered yet.
    var toOffer: [Draft] = []
}

/// Where drafts are kept: the store (`AppDatabase`) in the app; absent in unit tests.
public protocol DraftStore: Sendable {
    func saveDraft(_ draft: Draft) throws
    func removeDraft(itemID: String?) throws
    func drafts() throws -> [Draft]
}

extension AppDatabase: DraftStore {}
