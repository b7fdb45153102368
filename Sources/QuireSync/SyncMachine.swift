import Foundation
import QuireCore

/// The sync engine's decisions as a pure state machine: events in, actions out.
///
/// It decides when rounds run (debounced after local writes, periodically, at once on
/// request, after a backoff when one failed) and what to tell the person. It does no I/O and
/// reads no clock: `now` and the random source come with every event, and timers are actions
/// the worker turns into real ones. So every schedule can be tested without waiting.
///
/// At most one round runs at a time: events that arrive during a round are remembered and
/// acted on when it finishes.
public struct SyncMachine: Sendable {
    /// The timings the machine works with; SPEC's values by default.
    public struct Configuration: Hashable, Sendable {
        /// Quiet time after the last local write before a round starts. Saves are whole (the
        /// editor writes once, on save), so a short pause only gathers a burst of them.
        public var debounce: TimeInterval = 0.3
        /// How often to pull while running, when nothing else started a round.
        public var periodic: TimeInterval = 60
        /// How soon to look again for a file another device is still uploading (no hint comes
        /// when it arrives); doubled for each look that finds it still missing, up to `periodic`.
        public var awaitedFileLook: TimeInterval = 2
        public var backoff = SyncBackoff()
        /// How soon to try again when another process holds the sync lock of this database.
        public var busyRetry: TimeInterval = 1

        public init() {}
    }

    /// What kind of round to run.
    public enum RoundKind: String, Hashable, Sendable {
        /// Push the outbox, then pull from the cursor until caught up.
        case normal
        /// Read the server's snapshot and reconcile (after `410` or a new epoch), keeping
        /// every pending change, then continue as a normal round.
        case resync
    }

    /// How a round ended.
    public enum RoundOutcome: Hashable, Sendable {
        /// Everything sent was answered and the pull caught up.
        case caughtUp
        /// The round ended early with work left (a batch limit); another starts at once.
        case moreToDo
        /// The server could not be reached, or did not answer in time.
        case networkError(String)
        /// The server answered with an error status (5xx, 429, 413 …); `Retry-After` in seconds.
        case serverError(status: Int, retryAfter: TimeInterval?)
        /// 401 or 403: the token is missing, wrong or revoked.
        case authRefused(status: Int)
        /// The account is encrypted and this device holds no keys: paused as for a refused
        /// token, until the person unlocks (`quire encryption unlock`); the queue is kept.
        case encryptionLocked
        /// 410, or a new server epoch: the next round must resync from the snapshot.
        case resyncNeeded
        /// Another process is syncing this database right now.
        case busy
        /// No remote is configured.
        case notConfigured
        /// The local database failed (disk full, locked too long); retried with backoff.
        case localFailure(String)
    }

    /// The timers the machine sets; the worker keeps one real timer per kind.
    public enum Timer: String, Hashable, Sendable, CaseIterable {
        case debounce
        case retry
        case periodic
    }

    public enum Event: Hashable, Sendable {
        /// The worker started (the app opened, `quire sync` began).
        case started
        case stopped
        /// Something was written locally (a nudge from the store's observation).
        case localChange
        /// The person asked to sync now (`s`, `quire sync`).
        case syncRequested
        /// A remote was set or its token changed: try again even if paused.
        case credentialsChanged
        /// The server was seen answering elsewhere (the hint stream opened, or another process
        /// synced this store): a retry that is waiting runs now instead of at its time.
        case serverReached
        /// The hint stream that was open ended: the server may be gone or the token revoked,
        /// so an idle worker checks with a round now instead of at the next periodic pull.
        case hintsLost
        case timerFired(Timer)
        case roundFinished(RoundOutcome)
        /// The round that just caught up left a file an item here refers to waiting on the
        /// server; `looks` rounds in a row have found it so.
        case filesAwaited(looks: Int)
    }

    public enum Action: Hashable, Sendable {
        case startRound(RoundKind)
        /// Fire `timer` at the given moment, replacing any earlier schedule of it.
        case schedule(Timer, at: Date)
        case cancel(Timer)
        /// Sync stays paused until the credentials change or the person asks again.
        case pauseForAuth
        /// The status changed; show it.
        case report(Status)
    }

    /// What the machine knows about sync health, for the status bar and `quire status`.
    public struct Status: Hashable, Sendable {
        public var connection: SyncConnection
        public var lastSuccess: Date?
        /// When the next attempt happens, while waiting after a failure.
        public var nextRetry: Date?
        /// Failed rounds in a row.
        public var failures: Int
        /// The last failure in a plain sentence, for the status bar's screens.
        public var problem: String?
        /// The failure as the transport or the store described it, shown only when asked for.
        public var problemDetail: String?
        /// Rounds started and finished so far: each start and end is news for the app (the
        /// round `s` asked for is over once `roundsFinished` passes the count it waited for).
        public var roundsStarted: Int
        public var roundsFinished: Int

        public init(
            connection: SyncConnection, lastSuccess: Date? = nil, nextRetry: Date? = nil,
            failures: Int = 0, problem: String? = nil, problemDetail: String? = nil, roundsStarted: Int = 0,
            roundsFinished: Int = 0
        ) {
            self.connection = connection
            self.lastSuccess = lastSuccess
            self.nextRetry = nextRetry
            self.failures = failures
            self.problem = problem
            self.problemDetail = problemDetail
            self.roundsStarted = roundsStarted
            self.roundsFinished = roundsFinished
        }
    }

    /// A round under way, with what happened while it ran: each decides what follows it.
    struct Round: Hashable, Sendable {
        var kind: RoundKind
        /// When the last local write during the round was made: a round follows once the
        /// debounce has passed since then.
        var changedAt: Date?
        /// The person asked for a sync during the round: another follows at once.
        var requested = false
    }

    /// Where the machine is, each case with the data that only it has.
    enum Phase: Hashable, Sendable {
        case stopped
        /// Nothing runs (a debounce or the periodic pull may be set).
        case idle
        case running(Round)
        /// Waiting for the retry timer after a failure (or for another process's lock).
        case waiting(until: Date)
        /// 401/403: nothing runs until credentials change or the person asks.
        case pausedForAuth
        /// No remote: nothing runs until one is set.
        case unconfigured

        var isWaiting: Bool {
            if case .waiting = self { return true }
            return false
        }
    }

    public let configuration: Configuration
    public private(set) var status: Status
    private(set) var phase: Phase = .stopped
    /// What the next round must be: a `410` or a new epoch asks for a resync, and every round
    /// is one until a resync succeeds, whatever the phases between.
    private var nextKind: RoundKind = .normal

    public init(configuration: Configuration = Configuration(), lastSuccess: Date? = nil) {
        self.configuration = configuration
        self.status = Status(connection: .idle, lastSuccess: lastSuccess)
    }

    /// True while a round runs.
    public var isRunningRound: Bool {
        if case .running = phase { return true }
        return false
    }

    /// Handles one event at `now`; returns what to do, in order.
    public mutating func handle(
        _ event: Event, now: Date, random: inout some RandomNumberGenerator
    ) -> [Action] {
        let before = status
        var actions = transition(event, now: now, random: &random)
        if status != before { actions.append(.report(status)) }
        return actions
    }

    private mutating func transition(
        _ event: Event, now: Date, random: inout some RandomNumberGenerator
    ) -> [Action] {
        if phase == .stopped {
            guard event == .started else { return [] }
            return [.schedule(.periodic, at: now + configuration.periodic)] + startRound()
        }
        switch event {
        case .started:
            return []

        case .stopped:
            phase = .stopped
            status.nextRetry = nil
            if status.connection == .syncing { status.connection = .idle }
            return Timer.allCases.map { .cancel($0) }

        case .localChange:
            switch phase {
            case .idle:
                return [.schedule(.debounce, at: now + configuration.debounce)]
            case .running(var round):
                round.changedAt = now
                phase = .running(round)
                return []
            case .waiting, .pausedForAuth, .unconfigured, .stopped:
                // The retry timer, the person's sign-in or a new remote will carry the change.
                return []
            }

        case .serverReached:
            guard phase.isWaiting else { return [] }
            return [.cancel(.debounce), .cancel(.retry)] + startRound()

        case .hintsLost:
            guard phase == .idle else { return [] }
            return [.cancel(.debounce)] + startRound()

        case .syncRequested, .credentialsChanged:
            if event == .credentialsChanged {
                status.failures = 0
                status.problem = nil
                status.problemDetail = nil
            }
            if case .running(var round) = phase {
                round.requested = true
                phase = .running(round)
                return []
            }
            return [.cancel(.debounce), .cancel(.retry)] + startRound()

        case .timerFired(.debounce):
            switch phase {
            case .idle: return startRound()
            case .running(var round):
                // The write it waited for is a debounce old already: a round follows this one.
                round.changedAt = round.changedAt ?? .distantPast
                phase = .running(round)
                return []
            default: return []
            }

        case .timerFired(.retry):
            return phase.isWaiting ? startRound() : []

        case .timerFired(.periodic):
            let next: [Action] = [.schedule(.periodic, at: now + configuration.periodic)]
            return phase == .idle ? next + [.cancel(.debounce)] + startRound() : next

        case .roundFinished(let outcome):
            guard case .running(let round) = phase else { return [] }
            status.roundsFinished += 1
            return finish(round, outcome, now: now, random: &random)

        case .filesAwaited(let looks):
            // The next pull comes sooner; a round already started again looks anyway.
            guard phase == .idle, looks > 0 else { return [] }
            let doubled = configuration.awaitedFileLook * pow(2, Double(min(looks - 1, 30)))
            return [.schedule(.periodic, at: now + min(configuration.periodic, doubled))]
        }
    }

    private mutating func startRound() -> [Action] {
        let kind = nextKind
        phase = .running(Round(kind: kind))
        status.connection = .syncing
        status.nextRetry = nil
        status.roundsStarted += 1
        return [.startRound(kind)]
    }

    private mutating func finish(
        _ round: Round, _ outcome: RoundOutcome, now: Date, random: inout some RandomNumberGenerator
    ) -> [Action] {
        switch outcome {
        case .caughtUp, .moreToDo:
            if round.kind == .resync { nextKind = .normal }
            status.lastSuccess = now
            status.failures = 0
            status.problem = nil
            status.problemDetail = nil
            status.connection = .idle
            phase = .idle
            var actions: [Action] = [.schedule(.periodic, at: now + configuration.periodic)]
            if outcome == .moreToDo || round.requested {
                actions += startRound()
            } else if let changedAt = round.changedAt {
                let due = max(now, changedAt + configuration.debounce)
                actions.append(.schedule(.debounce, at: due))
            }
            return actions

        case .networkError(let message):
            return retryLater(
                connection: .offline, problem: "The server cannot be reached; changes wait on this device.",
                detail: message, after: nil, now: now, random: &random)

        case .serverError(let code, let retryAfter):
            let problem =
                code == 429
                ? "The server asked this device to slow down." : "The server could not take the changes just now."
            return retryLater(
                connection: .error, problem: problem, detail: "HTTP \(code)", after: retryAfter, now: now,
                random: &random)

        case .authRefused(let code):
            return pauseForAuth(
                problem: "The server no longer accepts this device's token: sign in again with quire remote set.",
                detail: "HTTP \(code)")

        case .encryptionLocked:
            return pauseForAuth(
                problem: "This account is encrypted: unlock this device with quire encryption unlock.",
                detail: "HTTP 403: locked")

        case .resyncNeeded:
            if round.kind == .resync {
                // A resync that is itself told to resync: back off rather than loop.
                return retryLater(
                    connection: .error, problem: "The server keeps asking this device to download everything again.",
                    detail: nil, after: nil, now: now, random: &random)
            }
            nextKind = .resync
            return startRound()

        case .localFailure(let message):
            return retryLater(
                connection: .error, problem: "This device's database could not be written.", detail: message,
                after: nil, now: now, random: &random)

        case .busy:
            status.connection = .idle
            let at = now + configuration.busyRetry
            phase = .waiting(until: at)
            status.nextRetry = nil
            return [.schedule(.retry, at: at)]

        case .notConfigured:
            phase = .unconfigured
            status.connection = .noRemote
            status.nextRetry = nil
            status.problem = nil
            status.problemDetail = nil
            return [.cancel(.debounce), .cancel(.retry)]
        }
    }

    /// Sync stops until the person acts (a new token, an unlock); the queue stays as it is.
    private mutating func pauseForAuth(problem: String, detail: String) -> [Action] {
        phase = .pausedForAuth
        status.connection = .authNeeded
        status.nextRetry = nil
        status.problem = problem
        status.problemDetail = detail
        return [.cancel(.debounce), .cancel(.retry), .pauseForAuth]
    }

    private mutating func retryLater(
        connection: SyncConnection, problem: String, detail: String?, after retryAfter: TimeInterval?, now: Date,
        random: inout some RandomNumberGenerator
    ) -> [Action] {
        status.failures += 1
        // The server's `Retry-After` is a floor, never a shortcut: a `Retry-After: 0` on every
        // answer must not turn the backoff into a tight loop against a struggling server.
        let backoff = configuration.backoff.delay(failures: status.failures, using: &random)
        let delay = max(backoff, retryAfter ?? 0)
        let at = now + delay
        phase = .waiting(until: at)
        status.connection = connection
        status.problem = problem
        status.problemDetail = detail
        status.nextRetry = at
        return [.schedule(.retry, at: at)]
    }
}
