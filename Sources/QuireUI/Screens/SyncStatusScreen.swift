import Foundation
import QuireCore
import TerminalUI

/// What sync is doing. Until a remote is set, it says how to set one.
enum SyncStatusScreen {
    static func render(_ state: AppState, into buffer: inout Buffer) {
        let area = Rect(size: state.size)
        let showsHints = state.size.height >= 10
        let rows = area.split(.vertical, [.fill, .length(showsHints ? 1 : 0), .length(1)])
        let sync = state.sync
        var lines: [Line] = [Line([Span("Sync status", style: Style(.title, bold: true))]), Line([])]
        func fact(_ name: String, _ value: String, _ role: Role = .normal) {
            lines.append(Line([Span(name.padded(toWidth: 14), .muted), Span(value, role)]))
        }
        func time(_ date: Date?) -> String {
            guard let date else { return "never" }
            return Timestamp.string(from: date).prefix(16).replacingOccurrences(of: "T", with: " ") + " UTC"
        }
        fact("state", sync.connection.rawValue)
        fact("pending", String(sync.pending), sync.pending > 0 ? .badgePending : .normal)
        fact("needs review", String(sync.needsReview), sync.needsReview > 0 ? .badgeReview : .normal)
        fact("rejected", String(sync.deadLetters), sync.deadLetters > 0 ? .badgeError : .normal)
        fact("last success", time(sync.lastSuccess))
        if let retry = sync.nextRetry { fact("next retry", time(retry)) }
        if sync.connection == .noRemote {
            lines.append(Line([]))
            lines.append(Line("Everything is saved on this device. To sync with a server, run:", style: Style(.muted)))
            lines.append(Line("  quire remote set URL --token TOKEN", style: Style(.accent)))
        }
        Paragraph(lines).render(into: &buffer, area: rows[0].inset(horizontal: 1))
        if showsHints { KeyHints(Keymap.hints(in: .syncStatus)).render(into: &buffer, area: rows[1]) }
        StatusBar.render(state, left: Line("Sync status", style: Style(.statusBar)), into: &buffer, area: rows[2])
    }
}
