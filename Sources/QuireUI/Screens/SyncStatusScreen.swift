import Foundation
import QuireCore
import TerminalUI

/// What sync is doing, all of it: the facts in two columns (one when narrow), a sparkline of
/// the outbox depth, the dead letters to retry or discard, the items needing review, the items
/// that do not open on this device, and the recent event log filling the rest. Until a remote
/// is set, it says how to set one.
///
/// Times are shown in UTC: the screen is a pure function of the state and has no time zone.
enum SyncStatusScreen {
    /// Two columns of facts from this width on.
    static let twoColumnWidth = 72
    /// Dead letters, conflicts and unreadable items shown before the event log takes the rest.
    static let maxDeadLetterRows = 5
    static let maxConflictRows = 3
    static let maxUnreadableRows = 3

    static func render(_ state: AppState, into buffer: inout Buffer) {
        let chrome = ScreenChrome(size: state.size)
        let content = chrome.content.inset(horizontal: 1)
        var lines: [Line] = []
        let roomy = content.height >= 16
        if roomy {
            lines.append(Line([Span("Sync status", style: Style(.title, bold: true))]))
        }
        lines += facts(state, width: content.width)
        lines.append(sparkline(state.syncStatus.depthHistory, width: content.width))
        if roomy { lines.append(Line([])) }
        if shown(state).connection == .noRemote, shown(state).remote == nil {
            let advice =
                content.width >= 64
                ? "Everything is saved on this device. To sync with a server, run:"
                : "Saved on this device only. To sync:"
            lines.append(Line(advice, style: Style(.muted)))
            lines.append(Line("  quire remote set URL --token TOKEN", style: Style(.accent)))
            if roomy { lines.append(Line([])) }
        }
        var y = content.y
        for line in lines where y < content.maxY {
            buffer.put(line.truncated(toWidth: content.width), x: content.x, y: y)
            y += 1
        }
        let rest = Rect(x: content.x, y: y, width: content.width, height: max(0, content.maxY - y))
        lists(state, into: &buffer, area: rest)
        if let hints = chrome.hints { KeyHints(Keymap.hints(in: .syncStatus)).render(into: &buffer, area: hints) }
        StatusBar.render(state, left: Line("Sync status", style: Style(.statusBar)), into: &buffer, area: chrome.status)
    }

    /// The store's facts from the report read last, with the connection, times and problem
    /// the status bar shows (the worker's own news), so that the two never disagree. Until the
    /// first read answers, what the status bar already knows.
    static func shown(_ state: AppState) -> SyncStatusDetail {
        var detail =
            state.syncStatus.detail
            ?? SyncStatusDetail(
                remote: nil, connection: state.sync.connection, lastSuccess: state.sync.lastSuccess,
                outbox: state.sync.pending, nextRetry: state.sync.nextRetry)
        guard let worker = state.syncWorker else { return detail }
        detail.connection = worker.connection
        detail.lastSuccess = worker.lastSuccess ?? detail.lastSuccess
        detail.nextRetry = worker.nextRetry
        detail.problem = worker.problem
        detail.updates = worker.updates
        return detail
    }

    /// The failure's own words, when `i` asked for them and there are any.
    private static func failureDetail(_ state: AppState) -> String? {
        guard state.syncStatus.showsFailureDetail, let worker = state.syncWorker else { return nil }
        let said = [worker.problemDetail, worker.live == false ? worker.pollingDetail : nil].compactMap { $0 }
        return said.isEmpty ? "nothing more was said" : said.joined(separator: " · ")
    }

    // MARK: - Facts

    private struct Fact {
        var name: String
        var value: String
        var role: Role = .normal
    }

    /// The facts, paired into two columns when there is room.
    private static func facts(_ state: AppState, width: Int) -> [Line] {
        let status = state.syncStatus
        let detail = shown(state)
        var remote = Fact(name: "remote", value: detail.remote ?? "none")
        if let error = status.loadError {
            remote = Fact(name: "remote", value: "cannot read the sync status: \(error)", role: .error)
        } else if status.detail == nil {
            remote = Fact(name: "remote", value: "reading…", role: .muted)
        }
        var stateText = detail.connection.rawValue
        if let problem = detail.problem, detail.connection != .idle, detail.connection != .syncing {
            stateText += " · " + problem
        } else if let updates = detail.updates, detail.connection == .idle || detail.connection == .syncing {
            stateText += " · " + updates
        }
        if detail.connection == .syncing, let received = state.syncWorker?.firstPullReceived {
            stateText += " · " + SyncSummary.firstPullText(received: received) + " so far"
        }
        let connection = Fact(name: "state", value: stateText, role: role(of: detail.connection))
        let said = failureDetail(state).map { Fact(name: "it said", value: $0, role: .muted) }
        let last = Fact(name: "last sync", value: time(detail.lastSuccess) ?? "never")
        let retry = Fact(name: "next retry", value: time(detail.nextRetry, seconds: true) ?? "—")
        let outbox = Fact(
            name: "outbox", value: "\(detail.outbox) waiting",
            role: detail.outbox > 0 ? .badgePending : .normal)
        let inFlight = Fact(
            name: "in flight", value: String(detail.inFlight),
            role: detail.inFlight > 0 ? .badgeSyncing : .normal)
        let sent = Fact(name: "sent", value: bytes(detail.bytesSent))
        let received = Fact(name: "received", value: bytes(detail.bytesReceived))
        let durations = Fact(name: "duration", value: percentiles(detail))
        let rounds = Fact(name: "rounds", value: roundsNote(detail))
        if width >= twoColumnWidth {
            let column = (width - 2) / 2
            let pairs = [(last, retry), (outbox, inFlight), (sent, received), (durations, rounds)]
            return [factLine(remote, width: width), factLine(connection, width: width)]
                + (said.map { [factLine($0, width: width)] } ?? [])
                + pairs.map { left, right in
                    var line = factLine(left, width: column)
                    line.append("  ")
                    line.spans += factLine(right, width: width - column - 2).spans
                    return line
                }
        }
        var outboxLine = outbox
        outboxLine.value += ", \(detail.inFlight) in flight"
        var stateLine = connection
        if let next = time(detail.nextRetry, seconds: true) { stateLine.value += " · retry \(next)" }
        let traffic = Fact(name: "traffic", value: "↑ \(bytes(detail.bytesSent))  ↓ \(bytes(detail.bytesReceived))")
        return ([remote, stateLine] + (said.map { [$0] } ?? []) + [last, outboxLine, traffic, durations]).map {
            factLine($0, width: width)
        }
    }

    /// The name in a column of its own, never cut nor run into its value (`remote none`, not
    /// `remotenone` on a narrow terminal); the value takes what is left.
    private static func factLine(_ fact: Fact, width: Int) -> Line {
        let nameWidth = max(fact.name.displayWidth + 1, min(11, width / 3))
        return Line([Span(fact.name.padded(toWidth: nameWidth), .muted), Span(fact.value, fact.role)])
            .padded(toWidth: width)
    }

    private static func role(of connection: SyncConnection) -> Role {
        switch connection {
        case .idle: .normal
        case .syncing: .badgeSyncing
        case .offline, .noRemote: .muted
        case .authNeeded, .error: .badgeError
        }
    }

    private static func roundsNote(_ detail: SyncStatusDetail) -> String {
        let count = detail.rounds.count
        switch detail.roundSource {
        case .thisSession: return "\(count) this session"
        case .eventLog: return "\(count) in the event log"
        }
    }

    private static func percentiles(_ detail: SyncStatusDetail) -> String {
        let durations = detail.durations
        guard let p50 = SyncStatusDetail.percentile(durations, 0.5),
            let p95 = SyncStatusDetail.percentile(durations, 0.95)
        else { return "no rounds yet" }
        return "p50 \(seconds(p50)) · p95 \(seconds(p95))"
    }

    /// The outbox depth over the last samples, with the largest one for scale.
    private static func sparkline(_ history: [Int], width: Int) -> Line {
        let label = "outbox ".padded(toWidth: max(7, min(11, width / 3)))
        let peak = "  max \(history.suffix(SyncStatusState.historyLimit).max() ?? 0)"
        let room = max(0, width - label.displayWidth - peak.displayWidth)
        let bars = Sparkline.bars(history, width: min(room, SyncStatusState.historyLimit))
        guard !bars.isEmpty else { return Line([Span(label, .muted), Span("no samples yet", .muted)]) }
        return Line([Span(label, .muted), Span(bars, .accent), Span(peak, .muted)])
    }

    // MARK: - Lists

    /// Dead letters (selectable), conflicts, unreadable items, then the event log in what room
    /// is left.
    private static func lists(_ state: AppState, into buffer: inout Buffer, area: Rect) {
        guard let detail = state.syncStatus.detail, !area.isEmpty else { return }
        let letters = detail.deadLetters
        let conflicts = detail.conflicts
        let unreadable = detail.unreadable
        // Each section gets its heading and one row first, then the extra room in this order.
        var room = area.height
        func take(_ wanted: Int) -> Int {
            let given = max(0, min(wanted, room))
            room -= given
            return given
        }
        var letterRows = letters.isEmpty ? 0 : take(2)
        var conflictRows = conflicts.isEmpty ? 0 : take(2)
        var unreadableRows = unreadable.isEmpty ? 0 : take(2)
        var eventRows = take(2)
        if letterRows == 2 { letterRows += take(min(letters.count, maxDeadLetterRows) - 1) }
        if conflictRows == 2 { conflictRows += take(min(conflicts.count, maxConflictRows) - 1) }
        if unreadableRows == 2 { unreadableRows += take(min(unreadable.count, maxUnreadableRows) - 1) }
        eventRows += take(room)

        var y = area.y
        if letterRows > 0 {
            let heading = Line([
                Span("Rejected changes (\(letters.count))", style: Style(.badgeError, bold: true)),
                Span("  r retry · D discard", .muted),
            ])
            buffer.put(heading.truncated(toWidth: area.width), x: area.x, y: y)
            let height = letterRows - 1
            let selected = min(state.syncStatus.selection, letters.count - 1)
            let rows = letters.map { letter in
                var row = Line([Span(letter.title), Span(" — \(letter.reason) · \(time(letter.at) ?? "")", .muted)])
                // The op id only when it fits whole: a cut id helps nobody.
                let id = Span(" · op \(letter.opID)", .muted)
                if row.width + id.width <= area.width - 2 { row.append(id) }
                return row.truncated(toWidth: max(0, area.width - 2))
            }
            let top = ListView.scrolledTop(currentTop: 0, selected: selected, height: height, count: letters.count)
            ListView(rows: rows, top: top, selected: selected)
                .render(into: &buffer, area: Rect(x: area.x, y: y + 1, width: area.width, height: height))
            y += letterRows
        }
        if conflictRows > 0 {
            let heading = Line([
                Span("Needs review (\(conflicts.count))", style: Style(.badgeReview, bold: true)),
                Span("  press c to resolve", .muted),
            ])
            let height = conflictRows - 1
            let rows = conflicts.prefix(height).enumerated().map { offset, conflict in
                let more =
                    offset == height - 1 && conflicts.count > height ? " (+\(conflicts.count - height) more)" : ""
                return Line([Span("  ! ", .badgeReview), Span(conflict.title), Span(more, .muted)])
            }
            put(heading, rows, into: &buffer, area: area, y: y)
            y += conflictRows
        }
        if unreadableRows > 0 {
            // The heading counts them all; the rows there are show the first seen.
            let heading = Line([
                Span("Unreadable (\(unreadable.count))", style: Style(.badgeError, bold: true)),
                Span("  not opened on this device", .muted),
            ])
            let rows = unreadable.prefix(unreadableRows - 1).map { unreadableRow($0, width: area.width) }
            put(heading, rows, into: &buffer, area: area, y: y)
            y += unreadableRows
        }
        if eventRows > 0 {
            buffer.put(
                Line("Recent events (UTC)", style: Style(.title, bold: true)).truncated(toWidth: area.width),
                x: area.x, y: y)
            if detail.events.isEmpty, eventRows > 1 {
                buffer.put(Line("  nothing yet", style: Style(.muted)), x: area.x, y: y + 1, maxWidth: area.width)
            }
            for (offset, event) in detail.events.prefix(eventRows - 1).enumerated() {
                let line = Line([
                    Span(eventTime(event.at) + " ", .muted),
                    Span(event.kind.rawValue.padded(toWidth: 11) + " ", role(ofEvent: event.kind)),
                    Span(event.message),
                ])
                buffer.put(line.truncated(toWidth: area.width), x: area.x, y: y + 1 + offset)
            }
        }
    }

    /// A section's heading at `y` and its rows under it, each cut to the area's width.
    private static func put(_ heading: Line, _ rows: [Line], into buffer: inout Buffer, area: Rect, y: Int) {
        for (offset, line) in ([heading] + rows).enumerated() {
            buffer.put(line.truncated(toWidth: area.width), x: area.x, y: y + offset)
        }
    }

    /// An item that does not open here: its short id, the title of the copy held here, and why.
    /// A long title takes at most half of what is left, so the reason always shows.
    private static func unreadableRow(_ item: SyncStatusDetail.Unreadable, width: Int) -> Line {
        let lead = [Span("  ? ", .badgeError), Span(item.shortID + " ", .muted)]
        let reason = " — \(item.reason)"
        let room = max(0, width - Line(lead).width)
        let title = item.title ?? "(not on this device)"
        let titleWidth = title.displayWidth + reason.displayWidth > room ? max(1, room / 2) : room
        let titleSpan = Span(title.truncated(toWidth: titleWidth), item.title == nil ? .muted : .normal)
        return Line(lead + [titleSpan, Span(reason, .muted)])
    }

    private static func role(ofEvent kind: SyncEventKind) -> Role {
        switch kind {
        case .deadLetter, .auth, .retry, .unreadable: .badgeError
        case .conflict: .badgeReview
        case .merged, .resync: .badgeSyncing
        case .syncStart, .pushOK, .pullOK: .accent
        }
    }

    // MARK: - Formats

    /// `2026-11-22 14:22 UTC`.
    /// `2026-11-22 14:22 UTC`; with `seconds`, `2026-11-22 14:22:05 UTC` (a retry is seconds
    /// away, and the minute alone does not say when).
    static func time(_ date: Date?, seconds: Bool = false) -> String? {
        guard let date else { return nil }
        return Timestamp.string(from: date).prefix(seconds ? 19 : 16).replacingOccurrences(of: "T", with: " ") + " UTC"
    }

    /// `11-22 14:22:05`.
    static func eventTime(_ date: Date) -> String {
        String(Timestamp.string(from: date).dropFirst(5).prefix(14)).replacingOccurrences(of: "T", with: " ")
    }

    /// `512 B`, `12.3 KB`, `4.5 MB` (powers of 1024).
    static func bytes(_ count: Int) -> String { ByteCount.text(count) }

    /// `340 ms`, `1.2 s`.
    static func seconds(_ interval: TimeInterval) -> String {
        if interval < 1 { return "\(Int((interval * 1000).rounded())) ms" }
        return String(format: interval < 10 ? "%.1f s" : "%.0f s", interval)
    }
}
