import TerminalUI

/// One prompt's row: its label, the text typed with the cursor in it, and why the text does
/// not read (a search that is not a filter yet). The list's search and tag prompts and the
/// item view's file prompts share it.
enum PromptLine {
    /// Draws the prompt; where the cursor goes.
    static func render(_ prompt: AppState.Prompt, into buffer: inout Buffer, area: Rect) -> Point {
        let x = buffer.put(label(prompt.kind), x: area.x, y: area.y, style: Style(.searchBar))
        let fieldWidth = area.maxX - x - 1
        let shown = prompt.field.visible(width: fieldWidth)
        // Shown as selected while typing would replace it.
        let style = prompt.replacesOnTyping ? Style(.normal, reverse: true) : Style(.normal)
        let end = buffer.put(shown.text, x: x, y: area.y, style: style, maxWidth: fieldWidth)
        if let error = prompt.error {
            // After the text, where it fits: the list still shows the last filter that read.
            let after = end + 2
            buffer.put(error, x: after, y: area.y, style: Style(.error), maxWidth: max(0, area.maxX - after))
        }
        return Point(x: x + shown.cursorX, y: area.y)
    }

    static func label(_ kind: AppState.PromptKind) -> String {
        switch kind {
        case .search: " / "
        case .tag: " tag # "
        case .attachFile: " attach file: "
        case .saveAttachment: " save to: "
        }
    }
}
