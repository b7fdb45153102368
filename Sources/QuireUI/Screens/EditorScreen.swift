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

        let bodyCursor = editor.body.render(into: &buffer, area: layout.body)

        if let hints = layout.hints {
            KeyHints(Keymap.hints(in: .editor)).render(into: &buffer, area: hints)
        }
        let row = editor.body.cursorPosition(width: layout.wrapWidth).y + 1
        let left = Line(
            titleFocused ? "\(editor.heading) · title" : "\(editor.heading) · row \(row)", style: Style(.statusBar))
        StatusBar.render(state, left: left, into: &buffer, area: layout.status)

        return titleFocused ? Point(x: field.x + shown.cursorX, y: field.y) : bodyCursor
    }
}
