import QuireCore
import TerminalUI

/// The main screen: the list, a preview of the selected item when there is room, the search
/// line when searching, key hints and the status bar.
enum ListScreen {
    static func render(_ state: AppState, into buffer: inout Buffer) -> Point? {
        let layout = state.listLayout
        var cursor: Point?
        if let area = layout.prompt {
            cursor = renderPrompt(state, into: &buffer, area: area)
        }
        renderList(state, into: &buffer, area: layout.list)
        if let area = layout.preview {
            renderPreview(state, into: &buffer, area: area)
        }
        if let area = layout.hints {
            // Help and quit stay in the row however narrow the terminal.
            let kept = state.prompt == nil ? 2 : 0
            let hints =
                state.prompt != nil
                ? Keymap.hints(in: .prompt)
                : state.list.query.trash
                    ? Keymap.trashHints
                    : Keymap.hints(in: .list)
            KeyHints(hints, keepingLast: kept).render(into: &buffer, area: area)
        }
        StatusBar.render(state, left: StatusBar.listText(state), into: &buffer, area: layout.status)
        return cursor
    }

    private static func renderPrompt(_ state: AppState, into buffer: inout Buffer, area: Rect) -> Point? {
        if let prompt = state.prompt { return PromptLine.render(prompt, into: &buffer, area: area) }
        var x = buffer.put(" / ", x: area.x, y: area.y, style: Style(.searchBar))
        x = buffer.put(state.list.query.search, x: x, y: area.y, maxWidth: area.maxX - x - 1)
        buffer.put("  (/ to change, Esc to clear)", x: x, y: area.y, style: Style(.muted), maxWidth: area.maxX - x)
        return nil
    }

    private static func renderList(_ state: AppState, into buffer: inout Buffer, area: Rect) {
        let list = state.list
        guard list.loaded else {
            buffer.put("  Loading…", x: area.x, y: area.y, style: Style(.muted), maxWidth: area.width)
            return
        }
        guard list.total > 0 else {
            let message =
                list.query.isUnfiltered
                ? ["  Nothing here yet.", "  Press a for a note, t for a task."]
                : list.query.trash && list.query == ListQuery(trash: true)
                    ? ["  The trash is empty.", "  T goes back to the list."]
                    : ["  Nothing matches.", "  Esc clears the search and filters."]
            for (offset, text) in message.enumerated() where offset < area.height {
                buffer.put(text, x: area.x, y: area.y + offset, style: Style(.muted), maxWidth: area.width)
            }
            return
        }
        let rowWidth = max(0, area.width - 2)
        if list.query.viewName == AppState.agendaView.name, let today = state.today {
            renderAgenda(state, today: today, rowWidth: rowWidth, into: &buffer, area: area)
            return
        }
        let first = max(list.top, list.offset)
        let last = min(list.top + area.height, list.offset + list.items.count)
        var rows: [Line] = []
        if first < last {
            for index in first..<last {
                rows.append(ItemRow.line(list.items[index - list.offset], width: rowWidth, today: state.today))
            }
        }
        ListView(rows: rows, firstIndex: first, count: list.total, top: list.top, selected: list.selection)
            .render(into: &buffer, area: area)
    }

    /// The agenda's rows under a heading for each day (`Day.agendaHeading`), as `quire agenda`
    /// prints them; the top row is always a heading, so the day of the first task shows. The
    /// list's scroll counts tasks only: the rows start further down when headings would push
    /// the selected task off the bottom.
    private static func renderAgenda(
        _ state: AppState, today: Day, rowWidth: Int, into buffer: inout Buffer, area: Rect
    ) {
        let list = state.list
        let loaded = list.offset..<(list.offset + list.items.count)
        func rows(from start: Int) -> (rows: [Line], selected: Int?) {
            var rows: [Line] = []
            var selected: Int?
            var heading: String?
            var index = start
            while rows.count < area.height, loaded.contains(index) {
                let item = list.items[index - list.offset]
                let day = (item.due ?? today).agendaHeading(today: today)
                if day != heading {
                    rows.append(Line(day, style: Style(.heading, bold: true)))
                    heading = day
                }
                if index == list.selection { selected = rows.count }
                rows.append(ItemRow.line(item, width: rowWidth, today: today))
                index += 1
            }
            return (Array(rows.prefix(area.height)), selected)
        }
        var start = max(list.top, list.offset)
        var shown = rows(from: start)
        while start < list.selection, loaded.contains(list.selection), (shown.selected ?? area.height) >= area.height {
            start += 1
            shown = rows(from: start)
        }
        ListView(rows: shown.rows, count: shown.rows.count, top: 0, selected: shown.selected)
            .render(into: &buffer, area: area)
    }

    private static func renderPreview(_ state: AppState, into buffer: inout Buffer, area: Rect) {
        guard !area.isEmpty else { return }
        let sideBySide = area.y == state.listLayout.list.y
        let content: Rect
        if sideBySide {
            for y in area.y..<area.maxY { buffer.put("│", x: area.x, y: y, style: Style(.border)) }
            content = Rect(x: area.x + 2, y: area.y, width: area.width - 3, height: area.height)
        } else {
            buffer.put(String(repeating: "─", count: area.width), x: area.x, y: area.y, style: Style(.border))
            content = Rect(x: area.x + 1, y: area.y + 1, width: area.width - 2, height: area.height - 1)
        }
        guard let item = state.list.selectedItem else { return }
        let lines = ItemDetails.lines(
            item, today: state.today, shownID: state.list.shownID(of: item),
            fitting: Size(width: content.width, height: content.height), markdown: !state.showsRawText)
        Paragraph(lines).render(into: &buffer, area: content)
    }
}
