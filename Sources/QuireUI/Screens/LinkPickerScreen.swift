import QuireCore
import TerminalUI

/// The link picker (`L`): the item's links (`→`), then the items that link to it (`←`), a
/// row each with the item reached, `(deleted)` or `(missing)`.
enum LinkPickerScreen {
    static func render(_ state: AppState, picker: LinkPickerState, into buffer: inout Buffer) {
        let chrome = ScreenChrome(size: state.size, headerRows: 1)
        let heading = Line([
            Span(" Links ", style: Style(.title, bold: true)), Span("“\(picker.title)”", .normal),
        ])
        buffer.put(heading.truncated(toWidth: chrome.header.width), x: chrome.header.x, y: chrome.header.y)
        let content = chrome.content.inset(horizontal: 1)
        if let entries = picker.entries {
            if entries.isEmpty {
                buffer.put(
                    "No links, and nothing links here: write [[Title]] in a text", x: content.x, y: content.y,
                    style: Style(.muted), maxWidth: content.width)
            }
            let first = max(0, picker.selected - content.height + 1)
            for (row, index) in (first..<min(entries.count, first + content.height)).enumerated() {
                line(entries[index])
                    .render(
                        into: &buffer, x: content.x, y: content.y + row, width: content.width,
                        selected: index == picker.selected)
            }
        } else {
            buffer.put("reading…", x: content.x, y: content.y, style: Style(.muted), maxWidth: content.width)
        }
        if let hints = chrome.hints { KeyHints(Keymap.hints(in: .links)).render(into: &buffer, area: hints) }
        StatusBar.render(state, left: Line("Links", style: Style(.statusBar)), into: &buffer, area: chrome.status)
    }

    /// `→ [[Garden plan]]  Garden plan` or `← Spring chores`.
    private static func line(_ entry: LinkEntry) -> Line {
        var spans: [Span]
        switch entry.direction {
        case .to:
            spans = [Span("→ ", .accent), Span("[[\(entry.text)]]", .normal)]
            if let target = entry.target, target.title != entry.text { spans.append(Span("  " + target.title, .muted)) }
        case .from:
            spans = [Span("← ", .accent), Span(entry.text, .normal)]
        }
        if let reach = entry.reach { spans.append(Span("  " + reach.mark, .linkMissing)) }
        return Line(spans)
    }
}
