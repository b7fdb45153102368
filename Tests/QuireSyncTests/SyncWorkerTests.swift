import Dispatch
import Foundation
import QuireCore
import QuireTestSupport
import Testing

@testable import QuireSync

/// A round runner whose rounds end only when the test says how.
///
/// It takes each round synchronously on the worker's queue (`start`), so what the tests wait
/// for never depends on when the shared pool of task threads gets to a task: in a full test
/// run that pool can be busy for seconds with other suites' work.
final class ScriptedRunner: SyncRoundRunner, @unchecked Sendable {
    private let lock = NSLock()
    private var waiting: [@Sendable (SyncMachine.RoundOutcome) -> Void] = []
    private var kinds: [SyncMachine.RoundKind] = []

    func start(_ kind: SyncMachine.RoundKind, completion: @escaping @Sendable (SyncMachine.RoundOutcome) -> Void) {
        lock.withLock {
            kinds.append(kind)
            waiting.append(completion)
        }
    }

    func run(_ kind: SyncMachine.RoundKind) async -> SyncMachine.RoundOutcome {
        await withCheckedContinuation { continuation in
            start(kind) { continuation.resume(returning: $0) }
        }
    }

    var started: [SyncMachine.RoundKind] { lock.withLock { kinds } }
    var running: Int { lock.withLock { waiting.count } }

    /// Ends the oldest running round.
    func finish(_ outcome: SyncMachine.RoundOutcome) {
        let completion = lock.withLock { waiting.isEmpty ? nil : waiting.removeFirst() }
        #expect(completion != nil, "a round to finish")
        completion?(outcome)
    }
}

extension SyncWorker {
    /// Reads `value` once the worker's queue has handled every event sent before the call (a
    /// barrier), so that a check never races the queue, however late it gets to run.
    func settled<T>(_ value: () -> T) -> T {
        _ = roundCounts
        return value()
    }
}

@Suite struct SyncWorkerTests {
    let clock = ManualSyncScheduler()
    let runner = ScriptedRunner()

    func makeWorker(random: UInt64 = .max) -> SyncWorker {
        SyncWorker(runner: runner, scheduler: clock, random: ConstantRandom(value: random))
    }

    /// Starts the worker and lets its first round succeed.
    func started(_ worker: SyncWorker) async {
        worker.start()
        await eventually { worker.settled { runner.running } == 1 }
        runner.finish(.caughtUp)
        await eventually { worker.roundCounts.finished == 1 }
    }

    @Test func startRunsARoundAndReportsSuccess() async {
        let statuses = StatusLog()
        let worker = SyncWorker(runner: runner, scheduler: clock, onStatus: statuses.append)
        worker.start()
        await eventually { worker.settled { runner.running } == 1 }
        #expect(worker.status.connection == .syncing)
        runner.finish(.caughtUp)
        await eventually { worker.status.connection == .idle }
        #expect(worker.status.lastSuccess == clock.now())
        #expect(statuses.all.map(\.connection) == [.syncing, .idle])
    }

    @Test func burstsOfWritesLeadToOneRoundAfterTheQuietPeriod() async {
        let worker = makeWorker()
        await started(worker)
        for _ in 0..<50 { worker.nudge() }
        _ = worker.status  // a barrier: the worker's queue has handled every nudge
        #expect(clock.deadlines.count == 2)  // periodic + debounce
        let debounce = SyncMachine.Configuration().debounce
        clock.advance(by: debounce - 0.1)
        #expect(runner.started.count == 1, "still quiet: no round yet")
        clock.advance(by: 0.2)
        await eventually { worker.settled { runner.running } == 1 }
        #expect(runner.started == [.normal, .normal])
    }

    @Test func failuresRetryOnTheBackoffTimer() async {
        let worker = makeWorker()
        await started(worker)
        worker.syncNow()
        await eventually { worker.settled { runner.running } == 1 }
        runner.finish(.networkError("connection refused"))
        await eventually { worker.status.connection == .offline }
        #expect(worker.status.nextRetry.map { $0.timeIntervalSince(clock.now()).rounded() } == 1)
        clock.advance(by: 1)
        await eventually { worker.settled { runner.running } == 1 }
        runner.finish(.serverError(status: 503, retryAfter: nil))
        await eventually { worker.status.failures == 2 }
        clock.advance(by: 1.5)
        #expect(runner.running == 0, "the second wait is up to 2 s")
        clock.advance(by: 0.5)
        await eventually { worker.settled { runner.running } == 1 }
        runner.finish(.caughtUp)
        await eventually { worker.status.connection == .idle && worker.status.failures == 0 }
    }

    @Test func thePeriodicPullComesEveryMinute() async {
        let worker = makeWorker()
        await started(worker)
        clock.advance(by: 59)
        #expect(runner.running == 0)
        clock.advance(by: 1)
        await eventually { worker.settled { runner.running } == 1 }
        runner.finish(.caughtUp)
        await eventually { worker.roundCounts.finished == 2 }
        #expect(clock.deadlines == [clock.now() + 60])
    }

    /// Ordered by the worker's own queue, not by time: `roundCounts` waits for the queue to
    /// handle everything sent before it, and the scripted runner takes a round the moment the
    /// queue starts it. So no step waits for a deadline, and a stalled machine cannot reorder it.
    @Test func syncNowDuringARoundRunsAnotherRightAfter() {
        let worker = makeWorker()
        worker.start()
        worker.syncNow()
        worker.syncNow()
        #expect(worker.roundCounts == (started: 1, finished: 0), "one round at a time")
        #expect(runner.running == 1)
        runner.finish(.caughtUp)
        #expect(worker.roundCounts == (started: 2, finished: 1), "the requests made one more round, at once")
        #expect(runner.running == 1)
        runner.finish(.caughtUp)
        #expect(worker.roundCounts == (started: 2, finished: 2), "two requests during one round make one more round")
        #expect(runner.running == 0)
        #expect(runner.started == [.normal, .normal])
        #expect(worker.status.connection == .idle)
    }

    @Test func authRefusalPausesUntilTheCredentialsChange() async {
        let worker = makeWorker()
        worker.start()
        await eventually { worker.settled { runner.running } == 1 }
        runner.finish(.authRefused(status: 401))
        await eventually { worker.status.connection == .authNeeded }
        worker.nudge()
        clock.advance(by: 600)
        await eventually { worker.roundCounts.finished == 1 }
        #expect(runner.started.count == 1, "no rounds while paused")
        worker.credentialsChanged()
        await eventually { worker.settled { runner.running } == 1 }
        runner.finish(.caughtUp)
        await eventually { worker.status.connection == .idle }
    }

    @Test func stoppingCancelsTheTimers() async {
        let worker = makeWorker()
        await started(worker)
        worker.nudge()
        _ = worker.status
        #expect(clock.deadlines.count == 2)
        worker.stop()
        await eventually { worker.settled { clock.deadlines.isEmpty } }
        clock.advance(by: 3_600)
        #expect(runner.started.count == 1)
    }
}

/// Collects reported statuses from the worker's queue.
final class StatusLog: @unchecked Sendable {
    private let lock = NSLock()
    private var statuses: [SyncMachine.Status] = []

    func append(_ status: SyncMachine.Status) {
        lock.withLock { statuses.append(status) }
    }

    var all: [SyncMachine.Status] { lock.withLock { statuses } }
}
