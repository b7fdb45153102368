import Foundation
import QuireCore
import QuireProtocol
import QuireStore

/// Runs sync rounds: push the outbox in batches, pull pages until caught up, resync from the
/// snapshot when told to. The worker calls it in the background; `quire sync` calls it once.
///
/// Only one round runs per database at a time, across processes (`SyncLock`). A round that is
/// killed at any point loses nothing: ops stay in the outbox until their result is applied,
/// and the cursor moves only in the transaction that applied its page.
public final class SyncEngine: SyncRoundRunner, @unchecked Sendable {
    public struct Limits: Hashable, Sendable {
        /// Ops per request.
        public var batchSize = 500
        /// Changes per pulled page and items per snapshot page.
        public var pageSize = 500
        /// Requests per round before yielding (`moreToDo`) so that a status can be shown.
        public var maxExchangesPerRound = 1_000
        /// Bodies whose previous value is longer than this travel with its hash as `from`.
        public var hashBodiesOver = 256
        /// How often the full state-hash check runs (it reads every item); 0 = every round.
        public var stateHashCheckInterval: TimeInterval = 600

        public init() {}
    }

    public let ledger: SyncLedger
    public let limits: Limits
    /// Called after every exchange with the ops it pushed and the changes (or snapshot items)
    /// it brought; `quire sync` draws its progress line from it. Set before the first round.
    public var afterExchange: (@Sendable (_ pushed: Int, _ pulled: Int) -> Void)?
    /// Called as a first pull goes: with how many items it has brought so far (0 as it starts,
    /// then after every page that brought any), and with nil once it has caught up; the app
    /// shows it while a new device fills. A first pull is that of a device that never pulled,
    /// or a download of everything (a resync); it may take several rounds. Set before the
    /// first round.
    public var onFirstPull: (@Sendable (_ received: Int?) -> Void)?
    /// Moves attached files after each round that caught up (`AttachmentSync`); nil moves none.
    /// Set before the first round.
    public var attachments: AttachmentSync?
    /// Runs the item rounds on `LaneExecutor.rounds` and the pull's next page on
    /// `LaneExecutor.readAhead`, below the UI: the app sets it, so that a pull applying page
    /// after page never takes a core a key wants. `quire sync`, which a person waits for, keeps
    /// the process's priority. Set before the first round.
    public var runsBelowTheUI = false
    let connect: @Sendable () -> (any SyncTransport)?
    private let lock: SyncLock?
    /// Guards `lastHashCheck`, `reports`, `firstPullReceived` and `awaitedLooks`.
    private let mutex = NSLock()
    /// Rounds in a row whose files' step found a file not on the server yet.
    private var awaitedLooks = 0
    private var lastHashCheck: Date?
    private var reports: [SyncRoundReport] = []
    /// Items the first pull under way has brought; nil when none runs (see `onFirstPull`).
    private var firstPullReceived: Int?

    /// - Parameters:
    ///   - connect: the transport for the configured remote, or nil when none is configured
    ///     (read at every round, so a new token takes effect without a restart).
    ///   - lock: the cross-process lock of the database; nil only for in-memory stores.
    public init(
        ledger: SyncLedger, limits: Limits = Limits(), lock: SyncLock?,
        connect: @escaping @Sendable () -> (any SyncTransport)?
    ) {
        self.ledger = ledger
        self.limits = limits
        self.lock = lock
        self.connect = connect
    }

    /// The most recent rounds, newest last (at most 100), for the status screen.
    public var recentRounds: [SyncRoundReport] { mutex.withLock { reports } }

    // MARK: - A round

    public func run(_ kind: SyncMachine.RoundKind) async -> SyncMachine.RoundOutcome {
        guard let transport = connect() else { return .notConfigured }
        if let lock {
            do {
                guard try lock.tryLock() else { return .busy }
            } catch {
                return .localFailure(String(describing: error))
            }
        }
        defer { lock?.unlock() }
        var report = SyncRoundReport(kind: kind, started: ledger.now())
        var outcome: SyncMachine.RoundOutcome
        do {
            outcome = try await withTaskExecutorPreference(runsBelowTheUI ? LaneExecutor.rounds : nil) {
                try await round(kind, transport: transport, report: &report)
            }
            if outcome == .caughtUp, let attachments, let files = transport.files {
                outcome = try await moveFiles(attachments, transport: files, sealer: transport.chunkSealer)
            }
        } catch let error as StoreError {
            outcome = .localFailure(error.description)
        } catch {
            outcome = .localFailure(String(describing: error))
        }
        report.finished = ledger.now()
        report.outcome = outcome
        mutex.withLock {
            reports.append(report)
            if reports.count > 100 { reports.removeFirst(reports.count - 100) }
        }
        return outcome
    }

    /// Runs rounds until the work is done or a failure needs the person or a backoff, as
    /// `quire sync` does: a resync when asked for, and waiting for another process's round.
    /// Rounds in a row that caught up while a file an item here refers to was not on the
    /// server yet (`AttachmentSync.Outcome.awaitingUploads`); 0 once none waits.
    public var filesAwaitedLooks: Int { mutex.withLock { awaitedLooks } }

    public func runToCompletion(waitingForLock timeout: TimeInterval = 30) async -> SyncMachine.RoundOutcome {
        var kind = SyncMachine.RoundKind.normal
        var resyncs = 0
        let deadline = ledger.now().addingTimeInterval(timeout)
        while true {
            switch await run(kind) {
            case .moreToDo:
                kind = .normal
            case .resyncNeeded where resyncs < 2:
                resyncs += 1
                kind = .resync
            case .busy where ledger.now() < deadline:
                try? await Task.sleep(nanoseconds: 50_000_000)
            case let outcome:
                return outcome
            }
        }
    }

    private func round(
        _ kind: SyncMachine.RoundKind, transport: any SyncTransport, report: inout SyncRoundReport
    ) async throws -> SyncMachine.RoundOutcome {
        // Ops left in flight by an interrupted round go again, under their own ids.
        try ledger.returnInFlight(serverFault: false, reason: nil)
        try ledger.logRoundStart(kind == .resync ? "resync started" : "sync started")
        if try kind == .resync || ledger.position().cursor == nil { firstPullBegins() }
        if kind == .resync {
            if let failure = try await resync(transport: transport, report: &report) { return failure }
        }
        if let failure = try await rereadUnreadable(transport: transport, report: &report) { return failure }
        var batchLimit = limits.batchSize
        // A long pull asks for its next page while it applies the last one, so the server's
        // work and the download overlap the local transaction. It is used only when the next
        // exchange pushes nothing and starts from the cursor it was asked with; otherwise it
        // is dropped (the cursor only ever moves in the transaction that applies a page).
        var readAhead: ReadAhead?
        defer { readAhead?.task.cancel() }
        for _ in 0..<limits.maxExchangesPerRound {
            let position = try ledger.position()
            let batch = try ledger.takeBatch(limit: batchLimit)
            let request = SyncRequest(
                device: position.deviceID, cursor: position.cursor, limit: limits.pageSize,
                ops: batch.map(wireForm))
            let began = ledger.now()
            let exchange: SyncExchange<SyncResponse>
            do {
                if let ahead = readAhead, batch.isEmpty, ahead.cursor == position.cursor {
                    readAhead = nil
                    exchange = try await ahead.task.value.get()
                } else {
                    readAhead?.task.cancel()
                    readAhead = nil
                    exchange = try await transport.sync(request)
                }
                report.networkTime += ledger.now().timeIntervalSince(began)
            } catch {
                if case .status(413, let body, _) = error, !batch.isEmpty {
                    // Too large: halve the batch, and set a lone op aside for good.
                    try ledger.returnInFlight(serverFault: false, reason: nil)
                    if batch.count == 1 {
                        try ledger.deadLetter(
                            opID: batch[0].id, item: batch[0].item,
                            reason: body?.message ?? "the server refused it as too large")
                    }
                    batchLimit = max(1, batch.count / 2)
                    continue
                }
                return try failed(error)
            }
            let response = exchange.value
            guard response.results.count == batch.count else {
                return try failed(.invalidAnswer("\(response.results.count) results for \(batch.count) ops"))
            }
            if batch.isEmpty, response.more, try !ledger.hasSendableOps() {
                let next = SyncRequest(
                    device: position.deviceID, cursor: response.cursor, limit: limits.pageSize, ops: [])
                readAhead = ReadAhead(
                    cursor: response.cursor,
                    task: Task(executorPreference: runsBelowTheUI ? LaneExecutor.readAhead : nil) {
                        do throws(SyncTransportError) {
                            return .success(try await transport.sync(next))
                        } catch {
                            return .failure(error)
                        }
                    })
            }
            let ledger = self.ledger
            let unreadable = exchange.unreadable
            let (pushed, pulled) = try await offThePool {
                (
                    try ledger.applyResults(response.results, sent: batch),
                    try ledger.applyPage(response, unreadable: unreadable)
                )
            }
            let took = ledger.now().timeIntervalSince(began)
            let milliseconds = Int((took * 1000).rounded())
            report.record(
                pushed: batch.count, pulled: response.changes.count, exchange: exchange, summary: pushed + pulled)
            afterExchange?(batch.count, response.changes.count)
            firstPullBrought(response.changes.count)
            if !batch.isEmpty {
                try ledger.record(
                    SyncEvent(
                        at: ledger.now(), kind: .pushOK,
                        message: "pushed \(SyncEngine.counted(batch.count, "op")): \(pushed.applied) applied"
                            + SyncEngine.describe(pushed) + " · \(exchange.bytesSent) bytes · \(milliseconds) ms",
                        bytes: exchange.bytesSent, duration: took))
            }
            if !response.changes.isEmpty {
                try ledger.record(
                    SyncEvent(
                        at: ledger.now(), kind: .pullOK,
                        message: "pulled \(SyncEngine.counted(response.changes.count, "change"))"
                            + SyncEngine.describe(pulled)
                            + " · \(exchange.bytesReceived) bytes · \(milliseconds) ms",
                        bytes: exchange.bytesReceived, duration: took))
            }
            if !response.more, try !ledger.hasSendableOps() {
                if try stateDiffers(from: response.stateHash) {
                    try ledger.log(.resync, "this device's copy differs from the server's: re-downloading what differs")
                    return .resyncNeeded
                }
                try ledger.recordSuccess()
                firstPullEnds()
                return .caughtUp
            }
        }
        return .moreToDo
    }

    /// One step of attachment transfers, behind the item changes: it stops as soon as one
    /// waits, and the next round pushes it first. The step runs on `LaneExecutor.transfers`, at
    /// a lower OS priority, so that it never takes a core the app's UI wants.
    private func moveFiles(
        _ attachments: AttachmentSync, transport: any AttachmentTransport, sealer: any ChunkSealer
    ) async throws -> SyncMachine.RoundOutcome {
        let ledger = self.ledger
        let outcome = await withTaskExecutorPreference(LaneExecutor.transfers) {
            await attachments.step(
                transport: transport, sealer: sealer, itemWorkWaiting: { (try? ledger.hasSendableOps()) ?? false })
        }
        switch outcome {
        case .done:
            mutex.withLock { awaitedLooks = 0 }
            return .caughtUp
        case .awaitingUploads:
            mutex.withLock { awaitedLooks += 1 }
            return .caughtUp
        case .moreToDo: return .moreToDo
        case .failed(let error): return try failed(error)
        case .localFailure(let reason): return .localFailure(reason)
        }
    }

    // MARK: - First pull progress

    private func firstPullBegins() {
        let began = mutex.withLock { () -> Bool in
            guard firstPullReceived == nil else { return false }
            firstPullReceived = 0
            return true
        }
        if began { onFirstPull?(0) }
    }

    private func firstPullBrought(_ count: Int) {
        guard count > 0 else { return }
        let received = mutex.withLock { () -> Int? in
            guard let before = firstPullReceived else { return nil }
            firstPullReceived = before + count
            return before + count
        }
        if let received { onFirstPull?(received) }
    }

    private func firstPullEnds() {
        let wasRunning = mutex.withLock { () -> Bool in
            defer { firstPullReceived = nil }
            return firstPullReceived != nil
        }
        if wasRunning { onFirstPull?(nil) }
    }

    /// A pull page asked for ahead of time, and the cursor it was asked from.
    private struct ReadAhead {
        let cursor: String
        let task: Task<Result<SyncExchange<SyncResponse>, SyncTransportError>, Never>
    }

    /// Reads the whole snapshot and reconciles with it; nil when done, else the failure.
    private func resync(transport: any SyncTransport, report: inout SyncRoundReport) async throws -> SyncMachine
        .RoundOutcome?
    {
        let position = try ledger.position()
        // A first-pull request of one change tells the server's current epoch: a new one means
        // its database was restored or recreated, and it lost what this device must re-send.
        let probe: SyncExchange<SyncResponse>
        do {
            probe = try await transport.sync(SyncRequest(device: position.deviceID, cursor: nil, limit: 1, ops: []))
        } catch {
            return try failed(error)
        }
        let serverLostData = position.epoch != nil && position.epoch != probe.value.epoch
        var after: String?
        var firstCursor: String?
        var total = ReconcileSummary()
        var items = 0
        repeat {
            let page: SyncExchange<SnapshotPage>
            do {
                page = try await transport.snapshot(after: after, limit: limits.pageSize)
            } catch {
                return try failed(error)
            }
            if firstCursor == nil { firstCursor = page.value.cursor }
            total = total + (try ledger.applySnapshotPage(page.value, after: after, unreadable: page.unreadable))
            items += page.value.items.count
            report.bytesReceived += page.bytesReceived
            afterExchange?(0, page.value.items.count)
            firstPullBrought(page.value.items.count)
            after = page.value.next
        } while after != nil
        try ledger.finishResync(cursor: firstCursor ?? "", epoch: probe.value.epoch)
        try ledger.log(
            .resync,
            (serverLostData ? "the server's database was restored: " : "")
                + "reconciled with \(items) items of the server's snapshot" + SyncEngine.describe(total))
        return nil
    }

    /// Puts the batch back and says what the failure means.
    func failed(_ error: SyncTransportError) throws -> SyncMachine.RoundOutcome {
        let outcome = error.outcome
        let serverFault: Bool
        switch error {
        case .status(let code, _, _): serverFault = code >= 500
        case .invalidAnswer: serverFault = true
        case .unreachable: serverFault = false
        }
        try ledger.returnInFlight(serverFault: serverFault, reason: error.description)
        var event = SyncEvent(at: ledger.now(), kind: .retry, message: error.description, failure: error.failureKind)
        switch outcome {
        case .authRefused:
            event.kind = .auth
            event.message += ": sync paused, sign in again (quire remote set)"
        case .encryptionLocked:
            event.kind = .auth
            event.failure = .locked
            event.message += ": sync paused, changes kept"
        case .resyncNeeded:
            event.kind = .resync
        case .serverError(_, let retryAfter?):
            event.retryAfter = retryAfter
            event.message += " · retry after \(Int(retryAfter.rounded(.up))) s"
        default:
            break
        }
        if event.failure == .locked {
            try ledger.recordLocked(event)
        } else {
            try ledger.record(event)
        }
        return outcome
    }

    /// Compares this device's state hash with the server's, now and then (it reads every item).
    private func stateDiffers(from serverHash: String) throws -> Bool {
        let now = ledger.now()
        let due = mutex.withLock {
            guard let last = lastHashCheck else { return true }
            return now.timeIntervalSince(last) >= limits.stateHashCheckInterval
        }
        guard due, let local = try ledger.quiescentStateHash() else { return false }
        mutex.withLock { lastHashCheck = now }
        return local != serverHash
    }

    /// An op as it goes on the wire: a long body's previous value travels as its hash.
    func wireForm(_ op: Op) -> Op {
        guard var fields = op.fields, let body = fields[.body], case .string(let text) = body.from,
            text.utf8.count > limits.hashBodiesOver
        else { return op }
        fields[.body]?.from = .sha256(ContentHash.sha256Hex(text))
        var copy = op
        copy.fields = fields
        return copy
    }

    /// "1 op", "3 ops".
    static func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)" + (count == 1 ? "" : "s")
    }

    static func describe(_ summary: ReconcileSummary) -> String {
        var parts: [String] = []
        if summary.merged > 0 { parts.append("\(summary.merged) merged") }
        if summary.needsReview > 0 {
            parts.append("\(summary.needsReview) " + (summary.needsReview == 1 ? "needs" : "need") + " review")
        }
        if summary.deadLetters > 0 { parts.append("\(summary.deadLetters) set aside") }
        if summary.resent > 0 { parts.append("\(summary.resent) re-sent") }
        if summary.unreadable > 0 { parts.append("\(summary.unreadable) unreadable") }
        return parts.isEmpty ? "" : ", " + parts.joined(separator: ", ")
    }
}

/// What one round did, for the status screen (bytes, durations) and benchmarks.
public struct SyncRoundReport: Hashable, Sendable {
    public var kind: SyncMachine.RoundKind
    public var started: Date
    public var finished: Date?
    public var outcome: SyncMachine.RoundOutcome?
    public var exchanges = 0
    public var opsPushed = 0
    public var changesPulled = 0
    public var bytesSent = 0
    public var bytesReceived = 0
    /// Time spent waiting for the server, of `duration`.
    public var networkTime: TimeInterval = 0
    public var summary = ReconcileSummary()

    public init(kind: SyncMachine.RoundKind, started: Date) {
        self.kind = kind
        self.started = started
    }

    public var duration: TimeInterval? { finished.map { $0.timeIntervalSince(started) } }

    mutating func record(pushed: Int, pulled: Int, exchange: SyncExchange<SyncResponse>, summary: ReconcileSummary) {
        exchanges += 1
        opsPushed += pushed
        changesPulled += pulled
        bytesSent += exchange.bytesSent
        bytesReceived += exchange.bytesReceived
        self.summary = self.summary + summary
    }
}
