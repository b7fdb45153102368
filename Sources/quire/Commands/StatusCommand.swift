import ArgumentParser
import Foundation
import QuireCore
import QuireStore
import QuireSync

/// `quire status`: where sync stands.
struct StatusCommand: StoreCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the sync state: remote, last success, outbox, conflicts, recent events.")

    @Flag(help: "Print the status as one JSON object.")
    var json = false

    func run(store: AppDatabase, out: inout Output) throws {
        let now = store.environment.now()
        let report = try SyncStatusReport.read(
            database: store, settings: try SyncCommandSupport.checkedSettings(), now: now)
        if json {
            try JSONOutput.encode(&out, report)
            return
        }
        let terminal = Terminal()
        out.line(report.summary.statusLine(now: now, timeZone: .current))
        var rows: [(String, String)] = [
            ("remote", report.remote ?? "none (quire remote set URL --token TOKEN)"),
            ("state", report.state.rawValue),
            ("last sync", report.lastSuccess.map(LocalTime.string) ?? "never"),
            ("outbox", "\(report.outbox) waiting, \(report.inFlight) in flight"),
        ]
        if let retry = report.nextRetry {
            let seconds = max(0, Int(retry.timeIntervalSince(now).rounded(.up)))
            rows.append(("next retry", LocalTime.string(retry) + " (in \(seconds)s)"))
        }
        if report.deadLetters > 0 {
            rows.append(("rejected", "\(report.deadLetters) (the server cannot apply them as they are)"))
        }
        rows.append(("conflicts", report.conflicts == 0 ? "none" : "\(report.conflicts) (quire conflicts)"))
        for item in report.unreadable {
            rows.append(("unreadable", "\(item.item): \(item.reason)"))
        }
        for (name, value) in rows {
            out.line(terminal.paint(Terminal.pad(name, to: 10), .dim) + " " + value)
        }
        if !report.events.isEmpty {
            out.line()
            out.line(terminal.paint("recent events", .dim))
            for event in report.events {
                out.line(
                    "  " + LocalTime.string(event.at) + "  " + Terminal.pad(event.kind.rawValue, to: 11) + " "
                        + event.message)
            }
        }
    }
}
