import QuireCore
import TerminalUI

/// The built-in editor: heading, title field, body with word wrap; the cursor shows where
/// typing goes.
enum EditorScreen {
    static func render(_ state: AppState, editor: EditorState, into buffer: inout Buffer) -> Point? {
        let layout = state.editorLayout
        var heading = Line([Span(" " + editor.heading, style: Style(.accent))])
        if editor.hasChanges { heading.append(Span(" · changed", .muted)) }
        if editor.saving { heading.append(Span(" · saving…", .muted)) }
        buffer.put(heading, x: layout.heading.x, y: layout.heading.y, maxWidth: layout.heading.width)

        let titleFocused = editor.focus == .title
        let labelStyle = Style(titleFocused ? .editorFocus : .muted)
        buffer.put(" Title", x: layout.title.x, y: layout.title.y, style: labelStyle)
        let field = layout.titleField
        let shown = editor.title.visible(width: field.width)
        buffer.put(shown.text, x: field.x, y: field.y, style: Style(.editorField), maxWidth: field.width)

        let bodyFocused = editor.focus == .body
        let rule = Line([
            Span("─ ", .border), Span("Body ", style: Style(bodyFocused ? .editorFocus : .muted)),
            Span(String(repeating: "─", count: max(0, layout.separator.width)), .border),
        ])
        buffer.put(rule, x: layout.separator.x, y: layout.separator.y, maxWidth: layout.separator.width)

        let width = layout.wrapWidth
        let rows = editor.body.visualRows(width: width)
        let body = layout.body
        for offset in 0..<body.height {
            let index = editor.body.scroll + offset
            guard index < rows.count else { break }
            let row = rows[index]
            let text = String(editor.body.lines[row.line][row.range])
            buffer.put(text, x: body.x, y: body.y + offset, maxWidth: body.width)
        }

        if let hints = layout.hints {
            KeyHints(Keymap.hints(in: .editor)).render(into: &buffer, area: hints)
        }
        let where_ = editor.focus == .title ? "title" : "body"
        let position = editor.body.cursorPosition(width: width)
        let left = Line(
            editor.focus == .title ? "\(editor.heading) · \(where_)" : "\(editor.heading) · row \(position.y + 1)",
            style: Style(.statusBar))
        StatusBar.render(state, left: left, into: &buffer, area: layout.status)

        if titleFocused {
            return Point(x: field.x + shown.cursorX, y: field.y)
        }
        let y = position.y - editor.body.scroll
        guard y >= 0, y < body.height else { return nil }
        return Point(x: body.x + position.x, y: body.y + y)
    }
}
