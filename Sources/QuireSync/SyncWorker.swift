import Dispatch
import Foundation
import QuireCore

/// Runs one sync round; the worker calls it whenever the machine says so.
public protocol SyncRoundRunner: Sendable {
    func run(_ kind: SyncMachine.RoundKind) async -> SyncMachine.RoundOutcome
    /// Begins a round and calls `completion` once with its outcome, from any thread.
    ///
    /// The worker starts rounds through this, on its own queue. The default runs `run` in a
    /// task; a runner that can take the round at once (a scripted one in tests) overrides it,
    /// so that a round is handed over the moment the worker decides on it, and not whenever
    /// the shared pool of task threads next has a thread free.
    func start(_ kind: SyncMachine.RoundKind, completion: @escaping @Sendable (SyncMachine.RoundOutcome) -> Void)
    /// Rounds in a row that caught up while a file an item here refers to was not on the
    /// server yet (its device still sending it); 0 when none waits. The worker then looks
    /// again sooner than the periodic pull: no hint comes when a file arrives.
    var filesAwaitedLooks: Int { get }
}

extension SyncRoundRunner {
    public var filesAwaitedLooks: Int { 0 }

    public func start(_ kind: SyncMachine.RoundKind, completion: @escaping @Sendable (SyncMachine.RoundOutcome) -> Void)
    {
        Task { completion(await run(kind)) }
    }
}

/// The thin shell around `SyncMachine`: it feeds the machine events, turns its timer actions
/// into real timers and starts rounds in the background.
///
/// Queue-confined: all mutable state belongs to `queue` (a serial queue). The public methods
/// may be called from any thread; they hop onto the queue and return at once, so a caller
/// such as the TUI's key handling is never blocked by sync.
public final class SyncWorker: @unchecked Sendable {
    public let queue: DispatchQueue
    private let runner: any SyncRoundRunner
    private let scheduler: any SyncScheduler
    private let onStatus: @Sendable (SyncMachine.Status) -> Void

    // Owned by `queue`.
    private var machine: SyncMachine
    private var random: AnyRandomNumberGenerator
    private var timers: [SyncMachine.Timer: (generation: Int, timer: any SyncScheduledTimer)] = [:]
    private var generation = 0

    /// - Parameters:
    ///   - onStatus: called on `queue` whenever the sync status changes.
    ///   - random: the source of backoff jitter.
    public init(
        runner: any SyncRoundRunner,
        scheduler: any SyncScheduler,
        configuration: SyncMachine.Configuration = .init(),
        lastSuccess: Date? = nil,
        random: some RandomNumberGenerator & Sendable = SystemRandomNumberGenerator(),
        queue: DispatchQueue = DispatchQueue(label: "quire.sync"),
        onStatus: @escaping @Sendable (SyncMachine.Status) -> Void = { _ in }
    ) {
        self.runner = runner
        self.scheduler = scheduler
        self.queue = queue
        self.onStatus = onStatus
        self.machine = SyncMachine(configuration: configuration, lastSuccess: lastSuccess)
        self.random = AnyRandomNumberGenerator(random)
    }

    // MARK: - Events (callable from any thread)

    /// Starts syncing: a round now, then periodic pulls, debounced pushes and retries.
    public func start() { send(.started) }
    /// Stops scheduling rounds; a round already running finishes on its own.
    public func stop() { send(.stopped) }
    /// Tells the worker that something was written locally; it syncs after a quiet moment.
    public func nudge() { send(.localChange) }
    /// Syncs now (or right after the round that is running).
    public func syncNow() { send(.syncRequested) }
    /// The remote or its token changed: resume if sync was paused for sign-in.
    public func credentialsChanged() { send(.credentialsChanged) }
    /// The server answered elsewhere (the hint stream, another process): a waiting retry runs now.
    public func serverReached() { send(.serverReached) }
    /// The open hint stream ended: check the server with a round now.
    public func hintsLost() { send(.hintsLost) }

    /// The current status (waits for the queue briefly; not for use on `queue` itself).
    public var status: SyncMachine.Status {
        queue.sync { machine.status }
    }

    /// How many rounds have started and finished, for tests and the status screen.
    public var roundCounts: (started: Int, finished: Int) {
        queue.sync { (machine.status.roundsStarted, machine.status.roundsFinished) }
    }

    private func send(_ event: SyncMachine.Event) {
        queue.async { self.handle(event) }
    }

    // MARK: - The loop (on `queue`)

    private func handle(_ event: SyncMachine.Event) {
        dispatchPrecondition(condition: .onQueue(queue))
        let actions = machine.handle(event, now: scheduler.now(), random: &random)
        for action in actions { perform(action) }
    }

    private func perform(_ action: SyncMachine.Action) {
        switch action {
        case .startRound(let kind):
            // The outcome always comes back through the queue, even when the runner answers
            // at once, so that `handle` never runs inside itself.
            runner.start(kind) { outcome in
                let looks = outcome == .caughtUp ? self.runner.filesAwaitedLooks : 0
                self.queue.async {
                    self.handle(.roundFinished(outcome))
                    if looks > 0 { self.handle(.filesAwaited(looks: looks)) }
                }
            }
        case .schedule(let kind, let deadline):
            timers[kind]?.timer.cancel()
            generation += 1
            let mine = generation
            let timer = scheduler.schedule(at: deadline, on: queue) { [weak self] in
                guard let self else { return }
                // A timer cancelled after it fired but before its handler ran is stale: skip it.
                guard self.timers[kind]?.generation == mine else { return }
                self.timers[kind] = nil
                self.handle(.timerFired(kind))
            }
            timers[kind] = (mine, timer)
        case .cancel(let kind):
            timers[kind]?.timer.cancel()
            timers[kind] = nil
        case .pauseForAuth:
            // The status report that comes with it says "sign in again"; the outbox is kept.
            break
        case .report(let status):
            onStatus(status)
        }
    }
}

/// A type-erased random source the worker can keep as a stored property.
struct AnyRandomNumberGenerator: RandomNumberGenerator, @unchecked Sendable {
    /// Only used on the worker's queue.
    private var base: any RandomNumberGenerator

    init(_ base: some RandomNumberGenerator) {
        self.base = base
    }

    mutating func next() -> UInt64 { base.next() }
}
