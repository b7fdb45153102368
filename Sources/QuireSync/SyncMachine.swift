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
        case timerFired(Timer)
        case roundFinished(RoundOutcome)
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
        /// One line about the last failure, for the status screen.
        public var problem: String?

        public init(
            connection: SyncConnection, lastSuccess: Date? = nil, nextRetry: Date? = nil,
            failures: Int = 0, problem: String? = nil
        ) {
            self.connection = connection
            self.lastSuccess = lastSuccess
            self.nextRetry = nextRetry
            self.failures = failures
            self.problem = problem
        }
    }

    enum Phase: Hashable, Sendable {
        case stopped
        case idle
        case running(RoundKind)
        /// Waiting for the retry timer after a failure.
        case waiting
        /// 401/403: nothing runs until credentials change or the person asks.
        case pausedForAuth
        /// No remote: nothing runs until one is set.
        case unconfigured
    }

    public let configuration: Configuration
    public private(set) var status: Status
    private(set) var phase: Phase = .stopped
    /// A local write happened during the current round.
    private var changedDuringRound = false
    /// The person asked for a sync during the current round.
    private var requestedDuringRound = false
    private var lastLocalChange: Date?
    /// Set by a `410`/new epoch until a resync round succeeds.
    private var resyncPending = false

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
            changedDuringRound = false
            requestedDuringRound = false
            status.nextRetry = nil
            if status.connection == .syncing { status.connection = .idle }
            return Timer.allCases.map { .cancel($0) }

        case .localChange:
            lastLocalChange = now
            switch phase {
            case .idle:
                return [.schedule(.debounce, at: now + configuration.debounce)]
            case .running:
                changedDuringRound = true
                return []
            case .waiting, .pausedForAuth, .unconfigured, .stopped:
                // The retry timer, the person's sign-in or a new remote will carry the change.
                return []
            }

        case .syncRequested, .credentialsChanged:
            if event == .credentialsChanged {
                status.failures = 0
                status.problem = nil
            }
            if case .running = phase {
                requestedDuringRound = true
                return []
            }
            return [.cancel(.debounce), .cancel(.retry)] + startRound()

        case .timerFired(.debounce):
            switch phase {
            case .idle: return startRound()
            case .running:
                changedDuringRound = true
                return []
            default: return []
            }

        case .timerFired(.retry):
            return phase == .waiting ? startRound() : []

        case .timerFired(.periodic):
            let next: [Action] = [.schedule(.periodic, at: now + configuration.periodic)]
            return phase == .idle ? next + [.cancel(.debounce)] + startRound() : next

        case .roundFinished(let outcome):
            guard case .running(let kind) = phase else { return [] }
            return finish(kind, outcome, now: now, random: &random)
        }
    }

    private mutating func startRound() -> [Action] {
        let kind: RoundKind = resyncPending ? .resync : .normal
        phase = .running(kind)
        changedDuringRound = false
        requestedDuringRound = false
        status.connection = .syncing
        status.nextRetry = nil
        return [.startRound(kind)]
    }

    private mutating func finish(
        _ kind: RoundKind, _ outcome: RoundOutcome, now: Date, random: inout some RandomNumberGenerator
    ) -> [Action] {
        switch outcome {
        case .caughtUp, .moreToDo:
            if kind == .resync { resyncPending = false }
            status.lastSuccess = now
            status.failures = 0
            status.problem = nil
            status.connection = .idle
            phase = .idle
            var actions: [Action] = [.schedule(.periodic, at: now + configuration.periodic)]
            if outcome == .moreToDo || requestedDuringRound {
                actions += startRound()
            } else if changedDuringRound {
                let due = max(now, (lastLocalChange ?? now) + configuration.debounce)
                actions.append(.schedule(.debounce, at: due))
            }
            return actions

        case .networkError(let message):
            return retryLater(
                connection: .offline, problem: "server unreachable: \(message)",
                after: nil, now: now, random: &random)

        case .serverError(let code, let retryAfter):
            let problem = code == 429 ? "the server asked to slow down (429)" : "the server answered \(code)"
            return retryLater(connection: .error, problem: problem, after: retryAfter, now: now, random: &random)

        case .authRefused(let code):
            phase = .pausedForAuth
            status.connection = .authNeeded
            status.nextRetry = nil
            status.problem =
                "the server refused the token (\(code)): sign in again with quire remote set URL --token-stdin"
            return [.cancel(.debounce), .cancel(.retry), .pauseForAuth]

        case .resyncNeeded:
            if kind == .resync {
                // A resync that is itself told to resync: back off rather than loop.
                return retryLater(
                    connection: .error, problem: "the server keeps asking for a resync",
                    after: nil, now: now, random: &random)
            }
            resyncPending = true
            return startRound()

        case .localFailure(let message):
            return retryLater(
                connection: .error, problem: "local database: \(message)", after: nil, now: now,
                random: &random)

        case .busy:
            phase = .waiting
            status.connection = .idle
            let at = now + configuration.busyRetry
            status.nextRetry = nil
            return [.schedule(.retry, at: at)]

        case .notConfigured:
            phase = .unconfigured
            status.connection = .noRemote
            status.nextRetry = nil
            status.problem = nil
            return [.cancel(.debounce), .cancel(.retry)]
        }
    }

    private mutating func retryLater(
        connection: SyncConnection, problem: String, after retryAfter: TimeInterval?, now: Date,
        random: inout some RandomNumberGenerator
    ) -> [Action] {
        status.failures += 1
        // The server's `Retry-After` is a floor, never a shortcut: a `Retry-After: 0` on every
        // answer must not turn the backoff into a tight loop against a struggling server.
        let backoff = configuration.backoff.delay(failures: status.failures, using: &random)
        let delay = max(backoff, retryAfter ?? 0)
        let at = now + delay
        phase = .waiting
        status.connection = connection
        status.problem = problem
        status.nextRetry = at
        return [.schedule(.retry, at: at)]
    }
}
