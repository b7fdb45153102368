import QuireCore
import TerminalUI

/// The bottom row, on every screen: where you are on the left, sync on the right; a notice
/// replaces the left part until the next key.
enum StatusBar {
    static func render(_ state: AppState, left: Line, into buffer: inout Buffer, area: Rect) {
        let urgent = state.sync.needsReview > 0 || state.sync.deadLetters > 0
        let right = Line(state.syncLine, style: Style(urgent ? .statusError : .statusBar))
        if let notice = state.notice {
            let role: Role = notice.isError ? .statusError : .statusInfo
            StatusLine(left: Line(notice.text, style: Style(role)), right: right, style: Style(.statusBar))
                .render(into: &buffer, area: area)
            return
        }
        StatusLine(left: left, right: right, style: Style(.statusBar)).render(into: &buffer, area: area)
    }

    /// `3/120 · tasks · open · #home`
    static func listText(_ state: AppState) -> Line {
        let list = state.list
        var parts: [String] = []
        if !list.loaded {
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
