import Foundation
import QuireCore
import TerminalUI

/// An item's history (`h`): its versions newest first, a line each (when, where from, what
/// changed), and below them the selected version in full, as `r` would restore it.
enum HistoryScreen {
    static func render(_ state: AppState, history: HistoryState, into buffer: inout Buffer) {
        let chrome = ScreenChrome(size: state.size, headerRows: 1)
        let count = history.versions.map { $0.count == 1 ? "1 version" : "\($0.count) versions" } ?? "reading…"
        let heading = Line([
            Span(" History ", style: Style(.title, bold: true)), Span("“\(history.title)”", .normal),
            Span(" · " + count, .muted),
        ])
        buffer.put(heading.truncated(toWidth: chrome.header.width), x: chrome.header.x, y: chrome.header.y)
        let content = chrome.content.inset(horizontal: 1)
        if let error = history.loadError {
            buffer.put(error, x: content.x, y: content.y, style: Style(.error), maxWidth: content.width)
        } else if let versions = history.versions {
            // The list takes up to half the content (at least three rows); the preview the rest.
            let listHeight = min(versions.count, max(3, content.height / 2), content.height)
            let list = Rect(x: content.x, y: content.y, width: content.width, height: listHeight)
            let first = max(0, history.selected - listHeight + 1)
            let shown = first..<min(versions.count, first + listHeight)
            let times = shown.map { when(versions[$0], state) }
            let timeWidth = (times.map(\.count).max() ?? 0) + 2
            for (row, index) in shown.enumerated() {
                line(history, index, when: times[row], timeWidth: timeWidth)
                    .render(
                        into: &buffer, x: list.x, y: list.y + row, width: list.width,
                        selected: index == history.selected)
            }
            let below = content.y + listHeight
            if below < content.maxY {
                buffer.put(String(repeating: "─", count: content.width), x: content.x, y: below, style: Style(.border))
            }
            let preview = Rect(
                x: content.x, y: below + 1, width: content.width, height: max(0, content.maxY - below - 1))
            if let version = history.selectedVersion, preview.height > 0 {
                let lines = ItemDetails.lines(
                    version.item, today: state.today, shownID: "", fitting: preview.size, syncState: false)
                Paragraph(lines).render(into: &buffer, area: preview)
            }
        }
        if let hints = chrome.hints { KeyHints(Keymap.hints(in: .history)).render(into: &buffer, area: hints) }
        StatusBar.render(state, left: statusText(history), into: &buffer, area: chrome.status)
    }

    /// Where the person is among the item's versions (not the list's position underneath).
    private static func statusText(_ history: HistoryState) -> Line {
        let place =
            if let versions = history.versions, !versions.isEmpty {
                "History · version \(history.selected + 1) of \(versions.count)"
            } else {
                "History"
            }
        return Line(place, style: Style(.statusBar))
    }

    /// When a version was recorded: `14:22` today, `Nov 21 14:22` before.
    private static func when(_ version: HistoryVersion, _ state: AppState) -> String {
        SyncSummary.clockTime(version.recordedAt, now: state.now ?? version.recordedAt, timeZone: state.timeZone)
    }

    /// One version's row: `Nov 21 14:22  local   title "a" → "b"`.
    private static func line(_ history: HistoryState, _ index: Int, when: String, timeWidth: Int) -> Line {
        guard let version = history.versions?[index] else { return Line([]) }
        let origin = version.origin.padding(toLength: 8, withPad: " ", startingAt: 0)
        return Line([
            Span(when.padding(toLength: timeWidth, withPad: " ", startingAt: 0), .muted),
            Span(origin, version.origin == "local" || version.origin == "undo" ? .accent : .muted),
            Span(history.summary(at: index)),
        ])
    }
}

extension Line {
    /// Draws the line in one row, marked and highlighted when selected.
    func render(into buffer: inout Buffer, x: Int, y: Int, width: Int, selected: Bool) {
        var row = Line([Span(selected ? "> " : "  ", selected ? .selection : .normal)] + spans)
        row = row.truncated(toWidth: width)
        if selected { row.spans = row.spans.map { Span($0.text, style: Style(.selection)) } }
        buffer.put(row, x: x, y: y)
    }
}
