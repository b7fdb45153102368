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
        if editor.changedElsewhere {
            heading.append(Span(" · changed elsewhere since you opened it · saving merges", .badgeReview))
        }
        buffer.put(heading, x: layout.heading.x, y: layout.heading.y, maxWidth: layout.heading.width)

        let titleFocused = editor.focus == .title
        buffer.put(" Title", x: layout.title.x, y: layout.title.y, style: Style(titleFocused ? .editorFocus : .muted))
        let field = layout.titleField
        let shown = editor.title.visible(width: field.width)
        buffer.put(shown.text, x: field.x, y: field.y, style: Style(.editorField), maxWidth: field.width)

        let detailsFocused = editor.focus == .details
        let detailsLabel = editor.kind == .task ? " Details" : " Tags"
        buffer.put(
            detailsLabel, x: layout.details.x, y: layout.details.y, style: Style(detailsFocused ? .editorFocus : .muted)
        )
        let detailsField = layout.detailsField
        let details = editor.details.visible(width: detailsField.width)
        if editor.details.text.isEmpty {
            buffer.put(
                editor.detailsPlaceholder, x: detailsField.x, y: detailsField.y, style: Style(.muted),
                maxWidth: detailsField.width)
        } else {
            buffer.put(
                details.text, x: detailsField.x, y: detailsField.y, style: Style(.editorField),
                maxWidth: detailsField.width)
        }

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
        let place =
            switch editor.focus {
            case .title: "title"
            case .details: editor.kind == .task ? "tags, due date, priority" : "tags"
            case .body: "line \(editor.body.line + 1)"
            }
        StatusBar.render(
            state, left: Line("\(editor.heading) · \(place)", style: Style(.statusBar)), into: &buffer,
            area: layout.status)

        switch editor.focus {
        case .title: return Point(x: field.x + shown.cursorX, y: field.y)
        case .details: return Point(x: detailsField.x + details.cursorX, y: detailsField.y)
        case .body: return bodyCursor
        }
    }
}
