import QuireCore
import TerminalUI

/// The bottom row, on every screen: where you are on the left, sync on the right; a notice
/// replaces the left part until the next key.
enum StatusBar {
    static func render(_ state: AppState, left: Line, into buffer: inout Buffer, area: Rect) {
        let right = Line(state.syncLine, style: Style(state.syncIsUrgent ? .statusError : .statusBar))
        if let notice = state.notice {
            let role: Role = notice.isError ? .statusError : .statusInfo
            if notice.isError, notice.text.displayWidth > area.width - 2 - right.width - 2 {
                renderWrapped(notice.text, role: role, into: &buffer, area: area)
                return
            }
            StatusLine(left: Line(notice.text, style: Style(role)), right: right, style: Style(.statusBar))
                .render(into: &buffer, area: area)
            return
        }
        StatusLine(left: left, right: right, style: Style(.statusBar)).render(into: &buffer, area: area)
    }

    /// An error too long for one row (a path where text was kept) takes the rows it needs
    /// above the status bar, up to half the screen, so that none of it is cut.
    private static func renderWrapped(_ text: String, role: Role, into buffer: inout Buffer, area: Rect) {
        let width = max(1, area.width - 2)
        let rows = WordWrap.lines(text, width: width)
        let count = min(rows.count, max(1, buffer.height / 2))
        for (offset, row) in rows.suffix(count).enumerated() {
            let y = area.y - count + 1 + offset
            guard y >= 0 else { continue }
            let line = Rect(x: area.x, y: y, width: area.width, height: 1)
            StatusLine(left: Line(row, style: Style(role)), style: Style(.statusBar)).render(into: &buffer, area: line)
        }
    }

    /// `3/120 · tasks · open · #home`
    static func listText(_ state: AppState) -> Line {
        let list = state.list
        var parts: [String] = []
        // Until the trash (or the list, coming back from it) is read, the rows and their count
        // are the other list's: its position must not pass for this one's.
        if !list.loaded || list.rowsQuery.map({ $0.trash != list.query.trash }) == true {
            parts.append("loading…")
        } else if list.total == 0 {
            parts.append(list.query.isUnfiltered ? "no items" : "no matches")
        } else {
            // A capped search says so rather than pass its cap off as the number of matches, and
            // says how many match in all once they are counted.
            if list.moreMatch, let counted = list.matchCount, counted.query == list.query {
                parts.append("\(list.selection + 1)/\(counted.count) (the best \(list.total) shown)")
            } else {
                parts.append("\(list.selection + 1)/\(list.total)" + (list.moreMatch ? "+ (the best shown)" : ""))
            }
        }
        parts += list.query.summary.filter { !$0.hasPrefix("/") }
        return Line(parts.joined(separator: " · "), style: Style(.statusBar))
    }
}
