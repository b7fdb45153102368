import QuireCore
import TerminalUI

/// The built-in editor: typing, moving the cursor, saving and cancelling.
extension AppState {
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
                screen = .list
            }
            return []
        case (.switchField?, _):
            editor.focus = editor.focus == .title ? .body : .title
        // Enter and Down leave the one-line title for the body; Up on the body's first row goes back.
        case (.newline?, .title), (.cursorDown?, .title):
            editor.focus = .body
        case (.cursorUp?, .body) where editor.body.cursorPosition(width: layout.wrapWidth).y == 0:
            editor.focus = .title
        case (_, .title):
            guard editor.title.edit(key, command) else { return [] }
        case (_, .body):
            guard editor.body.edit(key, command, in: layout.body) else { return [] }
        }
        screen = .editor(editor)
        return []
    }

    /// Checks the text and asks the runtime to write it; the editor stays open until the store
    /// answers, so a failed write keeps every character.
    private mutating func save(_ editor: EditorState) -> [Effect] {
        var editor = editor
        let title: String
        let body: String
        do {
            title = try Validation.title(editor.title.text)
            body = try Validation.body(editor.body.text)
        } catch {
            notice = Notice(text: "Cannot save: \(error)", isError: true)
            return []
        }
        guard let id = editor.itemID else {
            editor.saving = true
            screen = .editor(editor)
            return [.write(.create(kind: editor.kind, title: title, body: body))]
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
        guard !after.isEmpty else {
            screen = .list
            return []
        }
        editor.saving = true
        screen = .editor(editor)
        return [.write(.edit(id: id, before: before, after: after))]
    }
}
