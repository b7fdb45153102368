import QuireCore
import TerminalUI

/// The built-in editor: typing, moving the cursor, saving and cancelling.
extension AppState {
    mutating func editorKey(_ key: Key, _ command: Command?) -> [Effect] {
        guard var editor = editor, !editor.saving else { return [] }
        let layout = editorLayout
        let width = layout.wrapWidth
        switch command {
        case .save?:
            return save(editor)
        case .cancel?:
            if editor.hasChanges {
                question = .discardChanges
            } else {
                screen = .list
            }
            return []
        case .switchField?:
            editor.focus = editor.focus == .title ? .body : .title
        case .newline?:
            if editor.focus == .title { editor.focus = .body } else { editor.body.newline() }
        case .cursorLeft?:
            if editor.focus == .title { editor.title.moveLeft() } else { editor.body.moveLeft() }
        case .cursorRight?:
            if editor.focus == .title { editor.title.moveRight() } else { editor.body.moveRight() }
        case .cursorUp?:
            if editor.focus == .body {
                if editor.body.cursorPosition(width: width).y == 0 {
                    editor.focus = .title
                } else {
                    editor.body.moveVertically(by: -1, width: width)
                }
            }
        case .cursorDown?:
            if editor.focus == .title { editor.focus = .body } else { editor.body.moveVertically(by: 1, width: width) }
        case .cursorHome?:
            if editor.focus == .title { editor.title.moveToStart() } else { editor.body.moveToRowStart(width: width) }
        case .cursorEnd?:
            if editor.focus == .title { editor.title.moveToEnd() } else { editor.body.moveToRowEnd(width: width) }
        case .cursorPageUp?:
            if editor.focus == .body { editor.body.moveVertically(by: -max(1, layout.body.height - 1), width: width) }
        case .cursorPageDown?:
            if editor.focus == .body { editor.body.moveVertically(by: max(1, layout.body.height - 1), width: width) }
        case .deleteBackward?:
            if editor.focus == .title { editor.title.backspace() } else { editor.body.backspace() }
        case .deleteForward?:
            if editor.focus == .title { editor.title.deleteForward() } else { editor.body.deleteForward() }
        default:
            guard case .character(let character) = key else { return [] }
            if editor.focus == .title { editor.title.insert(character) } else { editor.body.insert(character) }
        }
        editor.body.scrollToCursor(width: width, height: layout.body.height)
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
