import Dispatch
import Foundation
import QuireCore
import QuireStore
import QuireSync
import QuireUI

/// What the app asks of sync: the status bar's summary, "sync now", and the sync status
/// screen's report and its retry and discard of dead letters.
///
/// `LocalOnlySync` is used until a sync engine is plugged in: it reports the store's counts and
/// says that no remote is configured. `LiveSyncControl` knows the configured remote and, when
/// the app runs one, the worker and its engine.
public protocol SyncControl: Sendable {
    /// The summary for the status bar, given the store's counts. Reads only.
    func summary(counts: StoreCounts) -> SyncSummary
    /// The store changed, whoever wrote it (an edit here, `quire add` in another terminal):
    /// this is where sync hears of work. Returns the status bar's summary for `counts`, from
    /// the same read of the settings: the app's poll calls this at every commit it sees.
    func storeChanged(counts: StoreCounts) -> SyncSummary
    /// Starts a sync round now, when it can.
    func syncNow() -> SyncNowAnswer
    /// Hands every change of the running worker's state to `listener` (from any thread),
    /// starting with the state now: the app draws sync from these and never asks the worker.
    func follow(_ listener: @escaping @Sendable (SyncWorkerState) -> Void)
    /// Everything the sync status screen shows. Called off the UI queue: it reads the store.
    func statusDetail(store: AppDatabase) throws -> SyncStatusDetail
    /// Queues a dead letter again under a new op id; false when it is no longer a dead letter.
    func retryDeadLetter(_ letter: SyncStatusDetail.DeadLetter, store: AppDatabase) throws -> Bool
    /// Drops a dead letter; false when it is no longer a dead letter.
    func discardDeadLetter(_ letter: SyncStatusDetail.DeadLetter, store: AppDatabase) throws -> Bool
    /// Unlocks this device for an encrypted account (the `U` prompt). Called off the UI queue:
    /// it asks the server and derives a key, which takes about half a second.
    func unlock(_ request: UnlockRequest) async -> UnlockOutcome
    /// Downloads an attached file this device does not hold, now (to open or save it).
    func fetch(_ file: AttachedFile) async throws(AttachmentFetchError)
    /// Calls `listener` (from any thread) each time a download of this process moves: its
    /// partial file is no commit, so the store's change detection does not see it.
    func followTransfers(_ listener: @escaping @Sendable () -> Void)
}

/// What asking for a sync round now did.
public enum SyncNowAnswer: Hashable, Sendable {
    /// A round was asked of the running worker.
    case started
    /// No remote is configured.
    case notConfigured
    /// A remote is configured but this process runs no worker.
    case noWorkerHere

    /// What the status bar says about it.
    public var notice: String {
        switch self {
        case .started: AppState.syncStartedNotice
        case .notConfigured: "Sync is not configured: run quire remote set URL --token TOKEN"
        case .noWorkerHere: "Sync does not run in this window: run quire sync"
        }
    }
}

extension SyncControl {
    public func unlock(_ request: UnlockRequest) async -> UnlockOutcome {
        .refused("sync is not configured: there is no account to unlock", wrongSecret: false)
    }

    public func storeChanged(counts: StoreCounts) -> SyncSummary { summary(counts: counts) }

    /// Without a sync engine there is nowhere to download from.
    public func fetch(_ file: AttachedFile) async throws(AttachmentFetchError) {
        throw AttachmentFetchError("\(file.name) is not on this device, and no remote is set to download it from")
    }
    public func follow(_ listener: @escaping @Sendable (SyncWorkerState) -> Void) {}

    /// Without an engine nothing downloads.
    public func followTransfers(_ listener: @escaping @Sendable () -> Void) {}

    /// Without a remote: the store's own facts, as a device that has never synced sees them.
    public func statusDetail(store: AppDatabase) throws -> SyncStatusDetail {
        try SyncStatusReading.detail(store: store, remote: nil, connection: .noRemote)
    }

    public func retryDeadLetter(_ letter: SyncStatusDetail.DeadLetter, store: AppDatabase) throws -> Bool {
        try SyncStatusReading.ledger(for: store).retryDeadLetter(letter.opID, item: letter.itemID)
    }

    public func discardDeadLetter(_ letter: SyncStatusDetail.DeadLetter, store: AppDatabase) throws -> Bool {
        try SyncStatusReading.ledger(for: store).discardDeadLetter(letter.opID, item: letter.itemID)
    }
}

public struct LocalOnlySync: SyncControl {
    public init() {}

    public func summary(counts: StoreCounts) -> SyncSummary {
        SyncSummary(
            connection: .noRemote, pending: counts.pending + counts.inFlight, needsReview: counts.needsReview,
            deadLetters: counts.rejected)
    }

    public func syncNow() -> SyncNowAnswer { .notConfigured }
}

/// Sync as `quire status` sees it: the remote from the settings, the store's facts and the
/// engine's own round figures; what the running worker says comes through `news`.
public struct LiveSyncControl: SyncControl {
    public let settings: SyncSettings
    public let worker: SyncWorker?
    public let engine: SyncEngine?
    /// The worker's and the hint stream's news, when the app runs a worker.
    public let news: SyncNews?
    /// When a sync of this store last succeeded, by any process (`SyncMeta.lastSuccessAt`).
    let storeLastSuccess: @Sendable () -> Date?

    public init(
        settings: SyncSettings, worker: SyncWorker? = nil, engine: SyncEngine? = nil, news: SyncNews? = nil,
        storeLastSuccess: @escaping @Sendable () -> Date? = { nil }
    ) {
        self.settings = settings
        self.worker = worker
        self.engine = engine
        self.news = news
        self.storeLastSuccess = storeLastSuccess
    }

    /// The store's counts; the connection the settings imply until the worker says more.
    public func summary(counts: StoreCounts) -> SyncSummary {
        summary(counts: counts, remoteSet: settings.remoteURL() != nil)
    }

    private func summary(counts: StoreCounts, remoteSet: Bool) -> SyncSummary {
        SyncSummary(
            connection: remoteSet ? .idle : .noRemote, pending: counts.pending + counts.inFlight,
            needsReview: counts.needsReview, deadLetters: counts.rejected)
    }

    /// Ops waiting to be sent nudge the worker, and it syncs after a quiet moment; a remote
    /// set while the app runs wakes it from "no remote"; another process that reached the
    /// server (`quire sync` in another terminal) ends a wait for a retry. The config file is
    /// read once for both this and the summary.
    public func storeChanged(counts: StoreCounts) -> SyncSummary {
        let remoteSet = settings.remoteURL() != nil
        if let worker, remoteSet { hearOfChange(counts: counts, worker: worker) }
        return summary(counts: counts, remoteSet: remoteSet)
    }

    private func hearOfChange(counts: StoreCounts, worker: SyncWorker) {
        let heard = news?.current
        if heard?.connection == .noRemote { worker.credentialsChanged() }
        if let elsewhere = storeLastSuccess(), elsewhere > (heard?.lastSuccess ?? .distantPast) {
            worker.serverReached()
        }
        if counts.pending > 0 { worker.nudge() }
    }

    public func follow(_ listener: @escaping @Sendable (SyncWorkerState) -> Void) {
        news?.listen(listener)
    }

    public func followTransfers(_ listener: @escaping @Sendable () -> Void) {
        engine?.attachments?.progress.listen { _ in listener() }
    }

    public func fetch(_ file: AttachedFile) async throws(AttachmentFetchError) {
        guard let engine else {
            throw AttachmentFetchError("\(file.name) is not on this device, and no remote is set to download it from")
        }
        try await engine.fetch(file)
    }

    public func syncNow() -> SyncNowAnswer {
        guard settings.remoteURL() != nil else { return .notConfigured }
        guard let worker else { return .noWorkerHere }
        worker.syncNow()
        return .started
    }

    /// Unlocks through the one call `quire encryption unlock` makes; the worker, paused for the
    /// keys, resumes at once (it reads them at every round).
    public func unlock(_ request: UnlockRequest) async -> UnlockOutcome {
        let secret: DeviceUnlock.Secret =
            request.isRecoveryKey ? .recoveryKey(request.secret) : .passphrase(request.secret)
        do {
            _ = try await DeviceUnlock.unlock(secret, settings: settings)
        } catch {
            return .refused(error.description, wrongSecret: error.isWrongSecret)
        }
        worker?.credentialsChanged()
        return .unlocked
    }

    /// The store's facts; the screen draws the connection, times and problem from the worker's
    /// own news (`SyncWorkerState`), as the status bar does.
    public func statusDetail(store: AppDatabase) throws -> SyncStatusDetail {
        let report = try SyncStatusReport.read(
            database: store, settings: settings, worker: nil, events: 1, now: store.environment.now())
        var detail = try SyncStatusReading.detail(
            store: store, remote: report.remote, connection: report.state, lastSuccess: report.lastSuccess,
            nextRetry: report.nextRetry)
        if let rounds = engine?.recentRounds, !rounds.isEmpty {
            detail.rounds = rounds.map {
                SyncStatusDetail.Round(duration: $0.duration, bytesSent: $0.bytesSent, bytesReceived: $0.bytesReceived)
            }
            detail.roundSource = .thisSession
        }
        return detail
    }

    public func retryDeadLetter(_ letter: SyncStatusDetail.DeadLetter, store: AppDatabase) throws -> Bool {
        let ledger = engine?.ledger ?? SyncStatusReading.ledger(for: store)
        let retried = try ledger.retryDeadLetter(letter.opID, item: letter.itemID)
        if retried { worker?.nudge() }
        return retried
    }

    public func discardDeadLetter(_ letter: SyncStatusDetail.DeadLetter, store: AppDatabase) throws -> Bool {
        try (engine?.ledger ?? SyncStatusReading.ledger(for: store)).discardDeadLetter(letter.opID, item: letter.itemID)
    }
}

/// The reads behind the sync status screen, shared by every `SyncControl`.
public enum SyncStatusReading {
    /// How many log events are read to find rounds (the screen shows fewer).
    public static let eventsRead = 300

    /// The store's facts around what the caller knows of the remote and the connection.
    public static func detail(
        store: AppDatabase, remote: String?, connection: SyncConnection, problem: String? = nil,
        lastSuccess: Date? = nil, nextRetry: Date? = nil
    ) throws -> SyncStatusDetail {
        let counts = try store.outboxCounts()
        let events = try store.recentSyncEvents(limit: eventsRead)
        let lastSuccess = try lastSuccess ?? store.syncMeta().lastSuccessAt
        return SyncStatusDetail(
            remote: remote, connection: connection, problem: problem, lastSuccess: lastSuccess,
            outbox: counts.pending, inFlight: counts.inFlight, nextRetry: nextRetry,
            deadLetters: try store.deadLetters().map {
                SyncStatusDetail.DeadLetter(
                    opID: $0.opID, itemID: $0.itemID, title: $0.title, reason: $0.reason, at: $0.at)
            },
            conflicts: try store.conflictTitles().map { SyncStatusDetail.Conflict(itemID: $0.itemID, title: $0.title) },
            unreadable: try unreadable(store: store),
            rounds: rounds(fromLog: events), roundSource: .eventLog,
            events: events.map { SyncStatusDetail.Event(seq: $0.seq, at: $0.at, kind: $0.kind, message: $0.message) })
    }

    /// The items marked unreadable, each with its short id and the title of the copy held here.
    static func unreadable(store: AppDatabase) throws -> [SyncStatusDetail.Unreadable] {
        let marks = try store.unreadableVersions()
        let ids = marks.map(\.itemID)
        let shortIDs = try store.shortIDs(for: ids)
        let titles = try store.titles(of: ids)
        return marks.map {
            SyncStatusDetail.Unreadable(
                itemID: $0.itemID, shortID: shortIDs[$0.itemID] ?? String($0.itemID.prefix(8)),
                title: titles[$0.itemID],
                reason: $0.reason)
        }
    }

    /// The rounds the event log tells of, oldest first.
    ///
    /// A round runs from its `SYNC_START` to the last event before the next one; its bytes are
    /// those its push and pull events record. A round that logged nothing after its start (a
    /// pull that found nothing) has no known end, so no duration. Events before the first start
    /// in the window belong to a round whose start was cut off and are skipped.
    public static func rounds(fromLog events: [SyncEvent]) -> [SyncStatusDetail.Round] {
        var rounds: [SyncStatusDetail.Round] = []
        var current: (start: Date, end: Date?, sent: Int, received: Int)?
        func close() {
            guard let round = current else { return }
            rounds.append(
                SyncStatusDetail.Round(
                    duration: round.end.map { max(0, $0.timeIntervalSince(round.start)) },
                    bytesSent: round.sent, bytesReceived: round.received))
        }
        for event in events.sorted(by: { $0.seq < $1.seq }) {
            if event.kind == .syncStart {
                close()
                current = (event.at, nil, 0, 0)
                continue
            }
            guard current != nil else { continue }
            current!.end = event.at
            switch event.kind {
            case .pushOK: current!.sent += event.bytes ?? 0
            case .pullOK: current!.received += event.bytes ?? 0
            default: break
            }
        }
        close()
        return rounds
    }

    /// A ledger over the store's file, for the person's decisions about dead letters.
    static func ledger(for store: AppDatabase) -> SyncLedger {
        SyncLedger(storage: store.syncStorage(), now: store.environment.now, newID: store.environment.newID)
    }
}

// MARK: - Running the screen's requests

extension AppRuntime {
    /// Tells sync the store changed (`SyncControl.storeChanged`) and returns the status bar's
    /// summary from the same read of the counts: called where a change is seen (the app
    /// opening, another process's commit, and `ownWriteNoted` for a write here), never by a
    /// status read. One read of the counts, not one for each: a poll runs this on the UI queue
    /// at every commit it sees, ten times a second while a file uploads.
    func storeChangeNoted() -> Message {
        lastCounts = try? environment.items.counts()
        guard let counts = lastCounts else { return currentSync() }
        return storeChangeNoted(counts: counts)
    }

    /// As `storeChangeNoted()`, with counts already read.
    func storeChangeNoted(counts: StoreCounts) -> Message {
        .syncChanged(environment.sync.storeChanged(counts: counts))
    }

    /// A write of this runtime's own committed: the poll need not read the list again for it
    /// (the write's answer does), and sync hears of it (`storeChangeNoted`).
    func ownWriteNoted() -> Message {
        markStoreSeen()
        return storeChangeNoted()
    }

    /// Runs a sync status request on a background queue and answers on the UI queue, so the
    /// screen never blocks typing while the store is read or written.
    func performSyncStatus(_ request: SyncStatusRequest) -> [Message] {
        let sync = environment.sync
        let items = environment.items
        let store = environment.statusStore
        activity.begin()
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            let answer = SyncStatusReading.answer(request, sync: sync, store: store, items: items)
            queue.async { [self] in
                defer { activity.end() }
                guard !isStoppedOnQueue else { return }
                // A retry or discard changed the counts: the status bar says so in the same frame.
                process(request == .load ? [.syncStatus(answer)] : [.syncStatus(answer), currentSync()])
            }
        }
        return []
    }
}

extension SyncStatusReading {
    /// The answer to one request; an app without a store file (in-memory tests) shows its counts.
    static func answer(_ request: SyncStatusRequest, sync: any SyncControl, store: AppDatabase?, items: any ItemSource)
        -> SyncStatusEvent
    {
        switch request {
        case .load:
            do {
                if let store { return .loaded(try sync.statusDetail(store: store)) }
                let counts = try items.counts()
                let summary = sync.summary(counts: counts)
                return .loaded(
                    SyncStatusDetail(
                        remote: nil, connection: summary.connection, lastSuccess: summary.lastSuccess,
                        outbox: counts.pending, inFlight: counts.inFlight, nextRetry: summary.nextRetry))
            } catch {
                return .loadFailed(String(describing: error))
            }
        case .retry(let letter), .discard(let letter):
            guard let store else { return .handled(request, .failure(WriteFailure("there is no store file"))) }
            do {
                let changed =
                    request == .retry(letter)
                    ? try sync.retryDeadLetter(letter, store: store)
                    : try sync.discardDeadLetter(letter, store: store)
                return .handled(request, .success(changed))
            } catch {
                return .handled(request, .failure(WriteFailure(String(describing: error))))
            }
        }
    }
}
