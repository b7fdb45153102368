import QuireCore
import TerminalUI

/// The built-in editor: typing, moving the cursor, saving and cancelling.
extension AppState {
    /// A store change may have moved the item under an open editor (another terminal, a sync).
    func refreshEditor() -> [Effect] {
        guard let id = editor?.itemID else { return [] }
        return [.readEditedItem(id: id)]
    }

    /// Closes the editor for the screen it was opened from: the item view, or the list.
    mutating func leaveEditor() {
        guard let editor else { return }
        screen = editor.returnsToItemView ? .detail(scroll: 0) : .list
    }

    mutating func editorKey(_ key: Key, _ command: Command?) -> [Effect] {
        guard var editor = editor, !editor.saving else { return [] }
        let layout = editorLayout
        switch (command, editor.focus) {
        case (.save?, _):
            return save(editor)
        case (.cancel?, _):
            if editor.hasChanges {
                question = .discardChanges
            } else {
                leaveEditor()
            }
            return []
        // Tab after `[[` in the body completes a title (`completeTitle`), as in the tag prompt.
        case (.switchField?, .body) where key == .tab && editor.body.openLinkText != nil:
            return [.complete(.title, prefix: editor.body.openLinkText ?? "")]
        // Tab moves between title and body (SPEC); the details line between them is reached with
        // Down from the title or Up from the body's first row.
        case (.switchField?, _):
            editor.focus = editor.focus == .body ? .title : .body
        // Enter leaves a one-line field for the body.
        case (.newline?, .title), (.newline?, .details), (.cursorDown?, .details):
            editor.focus = .body
        case (.cursorDown?, .title):
            editor.focus = .details
        case (.cursorUp?, .details):
            editor.focus = .title
        case (.cursorUp?, .body) where editor.body.isOnFirstRow(width: layout.wrapWidth):
            editor.focus = .details
        case (_, .title):
            guard editor.title.edit(key, command) else { return [] }
        case (_, .details):
            guard editor.details.edit(key, command) else { return [] }
        case (_, .body):
            guard editor.body.edit(key, command, in: layout.body) else { return [] }
        }
        screen = .editor(editor)
        return []
    }

    /// Tab after `[[` in the body: one title completes the link (`[[Garden plan]]`); several
    /// fill what they share and are listed. A title with a bracket cannot be spelled in a link.
    mutating func completeTitle(_ prefix: String, with titles: [String]) -> [Effect] {
        guard var editor, editor.focus == .body, !editor.saving, editor.body.openLinkText == prefix else {
            return []  // the person typed on meanwhile
        }
        let spellable = titles.filter { !$0.contains("[") && !$0.contains("]") }
        guard let first = spellable.first else {
            notice = .info("No title starts with “\(prefix)”")
            return []
        }
        let one = spellable.count == 1
        editor.body.replaceBeforeCursor(prefix, with: one ? first : CompletionKind.shared(spellable), closing: one)
        editor.body.scrollToCursor(width: editorLayout.wrapWidth, height: editorLayout.body.height)
        if !one { notice = .info(CompletionKind.listed(spellable.map { "[[\($0)]]" })) }
        screen = .editor(editor)
        return []
    }

    /// Checks the text and asks the runtime to write it; the editor stays open until the store
    /// answers, so a failed write keeps every character.
    private mutating func save(_ editor: EditorState) -> [Effect] {
        var editor = editor
        let title: String
        let body: String
        let details: DetailsLine.Values
        do {
            title = try Validation.title(editor.title.text)
            body = try Validation.body(editor.body.text)
            details = try DetailsLine.parse(editor.details.text, kind: editor.kind, today: today)
        } catch {
            notice = Notice(text: "Cannot save: \(error)", isError: true)
            if error is DetailsLine.Problem {
                editor.focus = .details
                screen = .editor(editor)
            }
            return []
        }
        guard let id = editor.itemID else {
            editor.saving = true
            screen = .editor(editor)
            return [.write(.create(kind: editor.kind, title: title, body: body, details: details))]
        }
        var before: [Field: FieldValue] = [:]
        var after: [Field: FieldValue] = [:]
        if title != editor.originalTitle {
            before[.title] = .string(editor.originalTitle)
            after[.title] = .string(title)
        }
        if body != editor.originalBody {
            before[.body] = .string(editor.originalBody)
            after[.body] = .string(body)
        }
        // Only what the details line changed is written: a tag another device added meanwhile
        // is not taken away by a line that still shows the tags as they were.
        if editor.details.text != editor.originalDetails,
            let opened = try? DetailsLine.parse(editor.originalDetails, kind: editor.kind)
        {
            if details.tags != opened.tags {
                before[.tags] = .strings(opened.tags)
                after[.tags] = .strings(details.tags)
            }
            func compare(_ field: Field, _ old: (any CustomStringConvertible)?, _ new: (any CustomStringConvertible)?) {
                let (from, to) = (FieldValue.text(old), FieldValue.text(new))
                if from != to { (before[field], after[field]) = (from, to) }
            }
            compare(.project, opened.project, details.project)
            compare(.due, opened.due, details.due)
            compare(.priority, opened.priority.rawValue, details.priority.rawValue)
            compare(.recur, opened.recur, details.recur)
            compare(.wait, opened.wait, details.wait)
            compare(.scheduled, opened.scheduled, details.scheduled)
        }
        guard !after.isEmpty else {
            leaveEditor()
            return []
        }
        editor.saving = true
        screen = .editor(editor)
        return [.write(.edit(id: id, before: before, after: after))]
    }
}
