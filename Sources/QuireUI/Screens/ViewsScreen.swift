import QuireCore
import TerminalUI

/// The saved views (`v`): every item first, then each view of `config.toml` with its filter.
/// With none, it says how to add one; with a config that does not read, why.
enum ViewsScreen {
    static func render(_ state: AppState, views: ViewsState, into buffer: inout Buffer) {
        let chrome = ScreenChrome(size: state.size, headerRows: 1)
        let heading = Line([Span(" Saved views ", style: Style(.title, bold: true))])
        buffer.put(heading.truncated(toWidth: chrome.header.width), x: chrome.header.x, y: chrome.header.y)
        let content = chrome.content.inset(horizontal: 1)
        var lines: [Line] = []
        if let list = views.list {
            if let problem = list.problem {
                lines = WordWrap.lines(problem, width: max(1, content.width)).map { Line($0, style: Style(.error)) }
            } else {
                let names = ["all"] + list.views.map(\.name)
                let nameWidth = min((names.map(\.displayWidth).max() ?? 0) + 2, max(4, content.width / 2))
                let filters = ["every item, no filter"] + list.views.map(\.filter)
                for (index, name) in names.enumerated() {
                    lines.append(row(name, filters[index], nameWidth: nameWidth, selected: index == views.selected))
                }
                if list.views.isEmpty {
                    lines.append(Line(""))
                    let path = list.configPath ?? "config.toml"
                    let advice = "No saved views yet. Add them to \(path), one filter a name:"
                    lines += WordWrap.lines(advice, width: max(1, content.width)).map { Line($0, style: Style(.muted)) }
                    lines.append(Line("[views]", style: Style(.muted)))
                    lines.append(Line("work = \"project:work status:open\"", style: Style(.muted)))
                }
            }
        } else {
            lines = [Line("reading…", style: Style(.muted))]
        }
        let first = max(0, views.selected - content.height + 1)
        for (offset, line) in lines.dropFirst(first).prefix(content.height).enumerated() {
            buffer.put(line.truncated(toWidth: content.width), x: content.x, y: content.y + offset)
        }
        if let hints = chrome.hints { KeyHints(Keymap.hints(in: .views)).render(into: &buffer, area: hints) }
        StatusBar.render(state, left: Line("Saved views", style: Style(.statusBar)), into: &buffer, area: chrome.status)
    }

    /// `> work    project:work status:open`, highlighted when selected.
    private static func row(_ name: String, _ filter: String, nameWidth: Int, selected: Bool) -> Line {
        let padded = name + String(repeating: " ", count: max(1, nameWidth - name.displayWidth))
        var line = Line([
            Span(selected ? "> " : "  ", selected ? .selection : .normal), Span(padded, .accent), Span(filter, .muted),
        ])
        if selected { line.spans = line.spans.map { Span($0.text, style: Style(.selection)) } }
        return line
    }
}
