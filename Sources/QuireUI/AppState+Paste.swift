import TerminalUI

/// Pasted text: text wherever text is typed, and never keys (a `d` in it deletes nothing).
extension AppState {
    /// What the status bar says when text is pasted on a screen that takes none.
    public static let pasteIgnoredNotice = "Pasted text ignored: nothing here takes text"

    mutating func paste(_ text: String) -> [Effect] {
        guard !isTooSmall, !text.isEmpty else { return [] }
        switch keyContext {
        case .prompt:
            // A recovery key is long: pasting it is the usual way to type it.
            if var current = unlock {
                if !current.unlocking { current.field.paste(text) }
                unlock = current
                return []
            }
            guard var current = prompt else { return [] }
            current.field.paste(text)
            current.replacesOnTyping = false
            prompt = current
            return searchFollowsPrompt()
        case .editor:
            notice = nil
            if case .resolve = screen { return pasteIntoResolveEditor(text) }
            guard var editor, !editor.saving else { return [] }
            switch editor.focus {
            case .title: editor.title.paste(text)
            case .details: editor.details.paste(text)
            case .body:
                let layout = editorLayout
                editor.body.insert(text)
                editor.body.scrollToCursor(width: layout.wrapWidth, height: layout.body.height)
            }
            screen = .editor(editor)
            return []
        case .list, .detail, .help, .syncStatus, .resolve, .history, .views, .links, .confirm:
            notice = Notice(text: AppState.pasteIgnoredNotice, isError: false)
            return []
        }
    }

    private mutating func pasteIntoResolveEditor(_ text: String) -> [Effect] {
        guard var resolve else { return [] }
        if var editor = resolve.fieldEditor {
            editor.input.paste(text)
            resolve.fieldEditor = editor
        } else if var area = resolve.bodyEditor {
            let view = ResolveScreen.textArea(size: size)
            area.insert(text)
            area.scrollToCursor(width: TextArea.wrapWidth(in: view), height: view.height)
            resolve.bodyEditor = area
        }
        screen = .resolve(resolve)
        return []
    }
}
