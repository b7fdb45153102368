import ArgumentParser
import Foundation
import QuireCore
import QuireStore
import QuireSync

/// `quire sync`: one full sync now (push the outbox, pull until caught up), then exit with
/// SPEC's code: 0, 3 unreachable, 4 auth refused, 5 done but items need review.
struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync now: push local changes, then pull until caught up.",
        discussion: "Exit codes: 0 synced, 3 server unreachable (changes kept), 4 sign in again, 5 items need review.")

    @Flag(help: "Print the outcome as one JSON object.")
    var json = false

    @Flag(help: "No progress line on a terminal.")
    var quiet = false

    struct Report: Encodable {
        var outcome: String
        var message: String?
        var pushed: Int
        /// Changes the server sent, this device's own writes coming back included.
        var pulled: Int
        /// Items that those changes created or changed here: what other devices did.
        var updatedHere: Int
        var merged: Int
        var needsReview: Int
        var deadLetters: Int
        var bytesSent: Int
        var bytesReceived: Int
        var durationMs: Int
        var outbox: Int
        var conflicts: Int
    }

    func run() async throws {
        let store = try StoreAccess.open()
        let settings = try SyncCommandSupport.checkedSettings()
        let engine = SyncCommandSupport.engine(store: store, settings: settings)
        let progress = ProgressReporter(quiet: quiet)
        let counted = SyncProgress(toPush: try store.outboxCounts().pending, reporter: progress)
        engine.afterExchange = { counted.record(pushed: $0, pulled: $1) }
        let started = store.environment.now()
        let outcome = await engine.runToCompletion()
        progress.finish()
        let rounds = engine.recentRounds
        let total = rounds.reduce(into: SyncRoundReport(kind: .normal, started: started)) { sum, round in
            sum.opsPushed += round.opsPushed
            sum.changesPulled += round.changesPulled
            sum.bytesSent += round.bytesSent
            sum.bytesReceived += round.bytesReceived
            sum.summary = sum.summary + round.summary
        }
        let conflicts = try store.conflicts().count
        let waiting = try store.outboxCounts()
        // What a person wants to know is what came from elsewhere: the server also sends this
        // device's own writes back, and those change nothing here.
        let incoming = total.summary.pulled
        var parts = [
            "pushed \(total.opsPushed)",
            incoming == 0 ? "nothing new from other devices" : "\(incoming) new from other devices",
        ]
        if total.summary.merged > 0 { parts.append("\(total.summary.merged) merged") }
        if waiting.rejected > 0 { parts.append("\(waiting.rejected) rejected (see 'quire status')") }
        let synced = "Synced · " + parts.joined(separator: ", ")
        var failure = SyncCommandSupport.failure(for: outcome, store: store)
        if failure == nil && conflicts > 0 {
            // The one line says both: what the sync did, and what waits for the person.
            failure = CLIFailure(
                .needsReview,
                synced + " · "
                    + (conflicts == 1
                        ? "1 item needs review: see 'quire conflicts'"
                        : "\(conflicts) items need review: see 'quire conflicts'"))
        }
        var out = Output()
        if json {
            try JSONOutput.encode(
                &out,
                Report(
                    outcome: SyncCommandSupport.name(of: outcome), message: failure?.message, pushed: total.opsPushed,
                    pulled: total.changesPulled, updatedHere: total.summary.pulled, merged: total.summary.merged,
                    needsReview: total.summary.needsReview,
                    deadLetters: total.summary.deadLetters, bytesSent: total.bytesSent,
                    bytesReceived: total.bytesReceived,
                    durationMs: Int(store.environment.now().timeIntervalSince(started) * 1000), outbox: waiting.pending,
                    conflicts: conflicts))
        } else if failure == nil {
            out.line(synced)
        }
        out.flush()
        if let failure { throw failure }
    }
}

/// What `quire sync`'s progress line counts: ops pushed of those waiting when it started, then
/// changes pulled (how many the server holds is not known until the last page).
final class SyncProgress: @unchecked Sendable {
    static let pushing = ProgressLine(verb: "pushing", unit: "changes")
    static let pulling = ProgressLine(verb: "pulling", unit: "changes")

    // Written only from the sync task, one exchange after another (see `ProgressReporter`).
    private let toPush: Int
    private let reporter: ProgressReporter
    private var pushed = 0
    private var pulled = 0

    init(toPush: Int, reporter: ProgressReporter) {
        self.toPush = toPush
        self.reporter = reporter
    }

    func record(pushed newlyPushed: Int, pulled newlyPulled: Int) {
        pushed += newlyPushed
        pulled += newlyPulled
        if pushed < toPush || newlyPulled == 0 {
            reporter.update(Self.pushing, done: pushed, total: max(toPush, pushed))
        } else {
            reporter.update(Self.pulling, done: pulled)
        }
    }
}
