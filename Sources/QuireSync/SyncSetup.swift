import Foundation
import QuireCore
import QuireStore

/// Builds the sync engine for a local database: the one place the CLI and the TUI get it from.
public enum SyncSetup {
    /// The engine for `database`, syncing with the remote in `settings` (read at every round,
    /// so `quire remote set` in another terminal takes effect at the next round). Its clock and
    /// ids come from `environment`: the store's own (`database.environment`) in the app.
    public static func engine(
        for database: AppDatabase, settings: SyncSettings, environment: StoreEnvironment, timeout: TimeInterval = 30,
        limits: SyncEngine.Limits = .init()
    ) -> SyncEngine {
        let now = environment.now
        let ledger = SyncLedger(storage: database.syncStorage(), now: now, newID: environment.newID)
        let engine = SyncEngine(
            ledger: ledger, limits: limits, lock: SyncLock(path: SyncLock.path(forDatabase: database.path), now: now),
            connect: {
                settings.remote().map { remote -> any SyncTransport in
                    let keys = try? settings.dataKeys()
                    let http = HTTPSyncTransport(baseURL: remote.url, token: remote.token, timeout: timeout, now: now)
                    return SealingTransport(
                        http, sealer: keys.map(ItemSealer.init), ringVersion: settings.keyRingVersion(),
                        learning: KeyLearning(settings: settings, readRing: http.keyRing, storeRing: http.storeKeyRing))
                }
            })
        engine.attachments = AttachmentSync(store: database, policy: { settings.downloadPolicy })
        return engine
    }
}

/// What `quire status` reports, as SPEC lists it; encodes as `quire status --json`.
public struct SyncStatusReport: Sendable, Encodable {
    public struct Event: Sendable, Encodable {
        public var at: Date
        public var kind: SyncEventKind
        public var message: String
        public var item: String?

        enum CodingKeys: String, CodingKey { case at, kind, message, item }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(Timestamp.string(from: at), forKey: .at)
            try container.encode(kind.rawValue, forKey: .kind)
            try container.encode(message, forKey: .message)
            try container.encode(item, forKey: .item)
        }
    }

    /// An item whose newest server version does not open on this device, and why.
    public struct Unreadable: Sendable, Encodable {
        public var item: String
        public var reason: String
        public var since: Date

        enum CodingKeys: String, CodingKey { case item, reason, since }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(item, forKey: .item)
            try container.encode(reason, forKey: .reason)
            try container.encode(Timestamp.string(from: since), forKey: .since)
        }
    }

    public var remote: String?
    public var state: SyncConnection
    public var lastSuccess: Date?
    /// Ops waiting to be sent.
    public var outbox: Int
    public var inFlight: Int
    public var nextRetry: Date?
    public var deadLetters: Int
    /// Items that need review.
    public var conflicts: Int
    /// Items whose server copy does not open here, oldest first: they stay marked until a
    /// readable version arrives, however far the event log has moved on.
    public var unreadable: [Unreadable] = []
    /// The most recent events, newest first.
    public var events: [Event]
    /// The account is encrypted and this device lacks its keys (`SyncSettings.isLocked`),
    /// whatever the last round met.
    var unlockNeeded = false

    enum CodingKeys: String, CodingKey {
        case remote, state, lastSuccess, outbox, inFlight, nextRetry, deadLetters, conflicts, unreadable, events
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(remote, forKey: .remote)
        try container.encode(state, forKey: .state)
        try container.encode(lastSuccess.map(Timestamp.string(from:)), forKey: .lastSuccess)
        try container.encode(outbox, forKey: .outbox)
        try container.encode(inFlight, forKey: .inFlight)
        try container.encode(nextRetry.map(Timestamp.string(from:)), forKey: .nextRetry)
        try container.encode(deadLetters, forKey: .deadLetters)
        try container.encode(conflicts, forKey: .conflicts)
        try container.encode(unreadable, forKey: .unreadable)
        try container.encode(events, forKey: .events)
    }

    /// Reads the report from the store. `worker` is the running worker's status when there is
    /// one (the TUI); without it (the CLI) the state comes from the event log, as of `now`.
    public static func read(
        database: AppDatabase, settings: SyncSettings, worker: SyncMachine.Status? = nil, events limit: Int = 10,
        now: Date
    ) throws -> SyncStatusReport {
        let counts = try database.outboxCounts()
        let meta = try database.syncMeta()
        let recent = try database.recentSyncEvents(limit: limit)
        let remote = settings.remoteURL()
        let state: SyncConnection
        var nextRetry = worker?.nextRetry
        if let worker {
            state = remote == nil ? .noRemote : worker.connection
        } else {
            let lock = SyncLock(path: SyncLock.path(forDatabase: database.path), now: { now })
            let busy = (try? lock.tryLock()).map { !$0 } ?? false
            lock.unlock()
            state = connection(
                hasRemote: remote != nil && settings.hasToken, syncingElsewhere: busy, newest: recent.first)
            if state == .error || state == .offline {
                nextRetry = serverWait(after: recent.first, now: now)
            }
        }
        var report = SyncStatusReport(
            remote: remote, state: state, lastSuccess: worker?.lastSuccess ?? meta.lastSuccessAt,
            outbox: counts.pending, inFlight: counts.inFlight, nextRetry: nextRetry,
            deadLetters: counts.rejected, conflicts: try database.conflicts().count,
            events: recent.map { Event(at: $0.at, kind: $0.kind, message: $0.message, item: $0.itemID) })
        report.unreadable = try database.unreadableVersions().map {
            Unreadable(item: $0.itemID, reason: $0.reason, since: $0.seenAt)
        }
        report.unlockNeeded = settings.isLocked(meta)
        return report
    }

    /// The state a process that is not syncing can tell: from the newest event of the log.
    static func connection(hasRemote: Bool, syncingElsewhere: Bool, newest event: SyncEvent?) -> SyncConnection {
        guard hasRemote else { return .noRemote }
        if syncingElsewhere { return .syncing }
        switch event?.kind {
        case .auth: return .authNeeded
        case .retry: return event?.failure == .unreachable ? .offline : .error
        default: return .idle
        }
    }

    /// When the server allowed the next attempt, from the newest event when it is a RETRY
    /// that carried `Retry-After`; nil when there is none or that moment has passed.
    static func serverWait(after event: SyncEvent?, now: Date) -> Date? {
        guard let event, event.kind == .retry, let wait = event.retryAfter else { return nil }
        let at = event.at.addingTimeInterval(wait)
        return at > now ? at : nil
    }

    /// The summary the status bar renders.
    public var summary: SyncSummary {
        var summary = SyncSummary(
            connection: state, pending: outbox + inFlight, needsReview: conflicts, deadLetters: deadLetters,
            lastSuccess: lastSuccess, nextRetry: nextRetry)
        summary.unlockNeeded = unlockNeeded
        return summary
    }
}
