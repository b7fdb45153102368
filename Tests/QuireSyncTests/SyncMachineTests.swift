import Foundation
import QuireCore
import Testing

@testable import QuireSync

/// A random source that always answers the same word: 0 gives the shortest jitter, `.max` the
/// longest, so tests can pin the ends of the backoff range.
struct ConstantRandom: RandomNumberGenerator, Sendable {
    var value: UInt64
    mutating func next() -> UInt64 { value }
}

@Suite struct SyncMachineTests {
    let t0 = Date(timeIntervalSince1970: 1_790_000_000)

    /// A machine that has started and finished its first round successfully at `t0`.
    func runningIdle() -> SyncMachine {
        var machine = SyncMachine()
        var random = ConstantRandom(value: 0)
        _ = machine.handle(.started, now: t0, random: &random)
        _ = machine.handle(.roundFinished(.caughtUp), now: t0, random: &random)
        return machine
    }

    func rounds(_ actions: [SyncMachine.Action]) -> [SyncMachine.RoundKind] {
        actions.compactMap { if case .startRound(let kind) = $0 { kind } else { nil } }
    }

    func schedules(_ actions: [SyncMachine.Action]) -> [SyncMachine.Timer: Date] {
        var result: [SyncMachine.Timer: Date] = [:]
        for case .schedule(let timer, let at) in actions { result[timer] = at }
        return result
    }

    @Test func startingRunsARoundAndSchedulesThePeriodicPull() {
        var machine = SyncMachine()
        var random = ConstantRandom(value: 0)
        let actions = machine.handle(.started, now: t0, random: &random)
        #expect(rounds(actions) == [.normal])
        #expect(schedules(actions) == [.periodic: t0 + 60])
        #expect(machine.status.connection == .syncing)
        #expect(actions.contains(.report(machine.status)))
    }

    /// A file another device is still sending: the next pull comes 2 s after a round that
    /// caught up found it missing, then 4, 8 … s, never later than the periodic pull; a round
    /// already started again decides for itself.
    @Test func aFileStillOnTheWayBringsThePeriodicPullCloserWithBackoff() {
        var machine = runningIdle()
        var random = ConstantRandom(value: 0)
        let first = machine.handle(.filesAwaited(looks: 1), now: t0, random: &random)
        #expect(schedules(first) == [.periodic: t0 + 2])
        #expect(rounds(machine.handle(.timerFired(.periodic), now: t0 + 2, random: &random)) == [.normal])
        #expect(machine.handle(.filesAwaited(looks: 2), now: t0 + 2, random: &random).isEmpty, "a round runs")
        let finished = machine.handle(.roundFinished(.caughtUp), now: t0 + 3, random: &random)
        #expect(schedules(finished) == [.periodic: t0 + 63], "the periodic pull, as after any round")
        #expect(schedules(machine.handle(.filesAwaited(looks: 2), now: t0 + 3, random: &random)) == [.periodic: t0 + 7])
        #expect(
            schedules(machine.handle(.filesAwaited(looks: 4), now: t0 + 3, random: &random)) == [.periodic: t0 + 19])
        #expect(
            schedules(machine.handle(.filesAwaited(looks: 9), now: t0 + 3, random: &random)) == [.periodic: t0 + 63])
    }

    /// A hint stream that was open and ended is news: an idle machine checks the server at
    /// once (a killed server or a revoked token shows in a second), a waiting one keeps its
    /// backoff, and a paused one stays paused.
    @Test func aLostHintStreamChecksTheServerOnlyWhenIdle() {
        var machine = runningIdle()
        var random = ConstantRandom(value: 0)
        #expect(rounds(machine.handle(.hintsLost, now: t0 + 5, random: &random)) == [.normal])
        _ = machine.handle(.roundFinished(.networkError("refused")), now: t0 + 5, random: &random)
        #expect(machine.status.connection == .offline)
        #expect(rounds(machine.handle(.hintsLost, now: t0 + 6, random: &random)).isEmpty, "the backoff holds")
        var paused = runningIdle()
        _ = paused.handle(.syncRequested, now: t0, random: &random)
        _ = paused.handle(.roundFinished(.authRefused(status: 401)), now: t0, random: &random)
        #expect(rounds(paused.handle(.hintsLost, now: t0 + 1, random: &random)).isEmpty)
        #expect(paused.status.connection == .authNeeded)
    }

    /// The server answering elsewhere (a stream opened, another process synced the store) ends
    /// a wait for a retry at once; it starts nothing when no retry is waiting.
    @Test func theServerSeenElsewhereEndsAWaitForARetry() {
        var machine = runningIdle()
        var random = ConstantRandom(value: .max)
        #expect(rounds(machine.handle(.serverReached, now: t0 + 1, random: &random)).isEmpty)
        _ = machine.handle(.syncRequested, now: t0 + 2, random: &random)
        _ = machine.handle(.roundFinished(.networkError("refused")), now: t0 + 2, random: &random)
        #expect(machine.status.nextRetry != nil)
        let actions = machine.handle(.serverReached, now: t0 + 3, random: &random)
        #expect(rounds(actions) == [.normal])
        #expect(actions.contains(.cancel(.retry)))
        #expect(machine.status.nextRetry == nil)
        #expect(machine.status.roundsStarted == 3)
        #expect(machine.status.roundsFinished == 2)
    }

    @Test func localWritesAreDebouncedUntilAQuietMoment() {
        let debounce = SyncMachine.Configuration().debounce
        #expect(debounce <= 0.3, "a save is pushed within 300 ms")
        var machine = runningIdle()
        var random = ConstantRandom(value: 0)
        var started: [SyncMachine.RoundKind] = []
        var debounceAt: Date?
        // Saves in a burst: one every quarter of the pause, for a while.
        for step in 0..<20 {
            let now = t0 + 10 + Double(step) * debounce / 4
            let actions = machine.handle(.localChange, now: now, random: &random)
            started += rounds(actions)
            debounceAt = schedules(actions)[.debounce] ?? debounceAt
        }
        #expect(started.isEmpty, "no round per keystroke")
        #expect(debounceAt == t0 + 10 + 19 * debounce / 4 + debounce)
        let fired = machine.handle(.timerFired(.debounce), now: debounceAt!, random: &random)
        #expect(rounds(fired) == [.normal])
    }

    @Test func aWriteDuringARoundIsPushedByTheNextDebouncedRound() {
        var machine = runningIdle()
        var random = ConstantRandom(value: 0)
        _ = machine.handle(.syncRequested, now: t0 + 5, random: &random)
        #expect(machine.handle(.localChange, now: t0 + 5.5, random: &random).isEmpty)
        let finished = machine.handle(.roundFinished(.caughtUp), now: t0 + 5.6, random: &random)
        #expect(rounds(finished).isEmpty)
        #expect(schedules(finished)[.debounce] == max(t0 + 5.6, t0 + 5.5 + SyncMachine.Configuration().debounce))
    }

    @Test func aRequestDuringARoundStartsAnotherRightAfterIt() {
        var machine = runningIdle()
        var random = ConstantRandom(value: 0)
        _ = machine.handle(.syncRequested, now: t0 + 5, random: &random)
        #expect(rounds(machine.handle(.syncRequested, now: t0 + 5.1, random: &random)).isEmpty, "one round at a time")
        #expect(rounds(machine.handle(.roundFinished(.caughtUp), now: t0 + 6, random: &random)) == [.normal])
    }

    @Test func aRoundWithWorkLeftIsFollowedAtOnce() {
        var machine = runningIdle()
        var random = ConstantRandom(value: 0)
        _ = machine.handle(.syncRequested, now: t0 + 1, random: &random)
        #expect(rounds(machine.handle(.roundFinished(.moreToDo), now: t0 + 2, random: &random)) == [.normal])
    }

    @Test func networkErrorsBackOffExponentiallyWithFullJitterCappedAtSixtySeconds() {
        var machine = runningIdle()
        var longest = ConstantRandom(value: .max)
        _ = machine.handle(.syncRequested, now: t0, random: &longest)
        var now = t0
        var waits: [TimeInterval] = []
        for _ in 0..<9 {
            let actions = machine.handle(
                .roundFinished(.networkError("connection refused")), now: now, random: &longest)
            guard let at = schedules(actions)[.retry] else {
                Issue.record("no retry scheduled")
                return
            }
            waits.append(at.timeIntervalSince(now))
            #expect(machine.status.connection == .offline)
            #expect(machine.status.nextRetry == at)
            now = at
            #expect(rounds(machine.handle(.timerFired(.retry), now: now, random: &longest)) == [.normal])
        }
        #expect(waits.map { $0.rounded() } == [1, 2, 4, 8, 16, 32, 60, 60, 60])
        #expect(machine.status.failures == 9)

        var shortest = ConstantRandom(value: 0)
        let actions = machine.handle(.roundFinished(.networkError("down")), now: now, random: &shortest)
        #expect(schedules(actions)[.retry] == now, "full jitter reaches down to zero")
    }

    @Test func retryAfterWinsOverTheBackoff() {
        var machine = runningIdle()
        var random = ConstantRandom(value: .max)
        _ = machine.handle(.syncRequested, now: t0, random: &random)
        let actions = machine.handle(
            .roundFinished(.serverError(status: 429, retryAfter: 30)), now: t0, random: &random)
        #expect(schedules(actions)[.retry] == t0 + 30)
        #expect(machine.status.connection == .error)
        #expect(machine.status.problem == "The server asked this device to slow down.")
        #expect(machine.status.problemDetail == "HTTP 429")
    }

    @Test func aRetryAfterOfZeroStillBacksOff() throws {
        var machine = runningIdle()
        var random = ConstantRandom(value: .max)
        _ = machine.handle(.syncRequested, now: t0, random: &random)
        var now = t0
        var waits: [TimeInterval] = []
        for _ in 0..<6 {
            let actions = machine.handle(
                .roundFinished(.serverError(status: 503, retryAfter: 0)), now: now, random: &random)
            let retry: Date? = schedules(actions)[.retry]
            let at = try #require(retry, "a failed round schedules a retry")
            waits.append(at.timeIntervalSince(now))
            now = at
            _ = machine.handle(.timerFired(.retry), now: now, random: &random)
        }
        #expect(waits.map { $0.rounded() } == [1, 2, 4, 8, 16, 32], "the backoff grows as if no Retry-After came")
    }

    @Test func successResetsTheFailuresAndRecordsTheTime() {
        var machine = runningIdle()
        var random = ConstantRandom(value: .max)
        _ = machine.handle(.syncRequested, now: t0, random: &random)
        _ = machine.handle(.roundFinished(.serverError(status: 503, retryAfter: nil)), now: t0, random: &random)
        _ = machine.handle(.timerFired(.retry), now: t0 + 1, random: &random)
        _ = machine.handle(.roundFinished(.caughtUp), now: t0 + 2, random: &random)
        #expect(
            machine.status
                == SyncMachine.Status(connection: .idle, lastSuccess: t0 + 2, roundsStarted: 3, roundsFinished: 3))
        // The next failure starts the backoff from the beginning again.
        _ = machine.handle(.syncRequested, now: t0 + 3, random: &random)
        let actions = machine.handle(.roundFinished(.networkError("x")), now: t0 + 3, random: &random)
        #expect(schedules(actions)[.retry] == t0 + 4)
    }

    @Test func localWritesWhileWaitingDoNotCutTheBackoffShort() {
        var machine = runningIdle()
        var random = ConstantRandom(value: .max)
        _ = machine.handle(.syncRequested, now: t0, random: &random)
        _ = machine.handle(.roundFinished(.networkError("x")), now: t0, random: &random)
        #expect(machine.handle(.localChange, now: t0 + 0.5, random: &random).isEmpty)
        #expect(rounds(machine.handle(.timerFired(.debounce), now: t0 + 0.6, random: &random)).isEmpty)
    }

    @Test func syncNowCutsTheWaitShort() {
        var machine = runningIdle()
        var random = ConstantRandom(value: .max)
        _ = machine.handle(.syncRequested, now: t0, random: &random)
        _ = machine.handle(.roundFinished(.serverError(status: 429, retryAfter: 600)), now: t0, random: &random)
        let actions = machine.handle(.syncRequested, now: t0 + 1, random: &random)
        #expect(actions.contains(.cancel(.retry)))
        #expect(rounds(actions) == [.normal])
    }

    @Test func authRefusalPausesUntilCredentialsChangeOrThePersonAsks() {
        var machine = runningIdle()
        var random = ConstantRandom(value: 0)
        _ = machine.handle(.syncRequested, now: t0, random: &random)
        let refused = machine.handle(.roundFinished(.authRefused(status: 401)), now: t0, random: &random)
        #expect(refused.contains(.pauseForAuth))
        #expect(refused.contains(.cancel(.retry)))
        #expect(machine.status.connection == .authNeeded)
        #expect(machine.status.nextRetry == nil)
        // Nothing starts a round on its own while paused.
        for event in [
            SyncMachine.Event.localChange, .timerFired(.debounce), .timerFired(.periodic), .timerFired(.retry),
        ] {
            #expect(rounds(machine.handle(event, now: t0 + 100, random: &random)).isEmpty, "\(event)")
        }
        #expect(rounds(machine.handle(.credentialsChanged, now: t0 + 200, random: &random)) == [.normal])
        _ = machine.handle(.roundFinished(.authRefused(status: 403)), now: t0 + 201, random: &random)
        #expect(rounds(machine.handle(.syncRequested, now: t0 + 300, random: &random)) == [.normal])
    }

    @Test func resyncRunsAtOnceAndKeepsBeingAskedForUntilOneSucceeds() {
        var machine = runningIdle()
        var random = ConstantRandom(value: .max)
        _ = machine.handle(.syncRequested, now: t0, random: &random)
        #expect(rounds(machine.handle(.roundFinished(.resyncNeeded), now: t0, random: &random)) == [.resync])
        // The resync fails on the network: the retry is a resync again.
        _ = machine.handle(.roundFinished(.networkError("x")), now: t0 + 1, random: &random)
        #expect(rounds(machine.handle(.timerFired(.retry), now: t0 + 2, random: &random)) == [.resync])
        // A resync told to resync again backs off instead of looping.
        let again = machine.handle(.roundFinished(.resyncNeeded), now: t0 + 3, random: &random)
        #expect(rounds(again).isEmpty)
        #expect(schedules(again)[.retry] != nil)
        #expect(rounds(machine.handle(.timerFired(.retry), now: t0 + 10, random: &random)) == [.resync])
        _ = machine.handle(.roundFinished(.caughtUp), now: t0 + 11, random: &random)
        #expect(rounds(machine.handle(.syncRequested, now: t0 + 12, random: &random)) == [.normal])
    }

    @Test func anotherProcessSyncingIsNotAFailure() {
        var machine = runningIdle()
        var random = ConstantRandom(value: 0)
        _ = machine.handle(.syncRequested, now: t0, random: &random)
        let actions = machine.handle(.roundFinished(.busy), now: t0, random: &random)
        #expect(schedules(actions)[.retry] == t0 + 1)
        #expect(machine.status.failures == 0)
        #expect(machine.status.connection == .idle)
    }

    @Test func thePeriodicPullRunsOnlyWhenIdleAndAlwaysReschedules() {
        var machine = runningIdle()
        var random = ConstantRandom(value: .max)
        let idle = machine.handle(.timerFired(.periodic), now: t0 + 60, random: &random)
        #expect(rounds(idle) == [.normal])
        #expect(schedules(idle)[.periodic] == t0 + 120)
        _ = machine.handle(.roundFinished(.networkError("x")), now: t0 + 61, random: &random)
        let waiting = machine.handle(.timerFired(.periodic), now: t0 + 121, random: &random)
        #expect(rounds(waiting).isEmpty)
        #expect(schedules(waiting)[.periodic] == t0 + 181)
    }

    @Test func withoutARemoteNothingRunsUntilOneIsSet() {
        var machine = SyncMachine()
        var random = ConstantRandom(value: 0)
        _ = machine.handle(.started, now: t0, random: &random)
        _ = machine.handle(.roundFinished(.notConfigured), now: t0, random: &random)
        #expect(machine.status.connection == .noRemote)
        #expect(machine.handle(.localChange, now: t0 + 1, random: &random).isEmpty)
        #expect(rounds(machine.handle(.timerFired(.periodic), now: t0 + 60, random: &random)).isEmpty)
        #expect(rounds(machine.handle(.credentialsChanged, now: t0 + 61, random: &random)) == [.normal])
    }

    @Test func stoppingCancelsEveryTimerAndIgnoresLateEvents() {
        var machine = runningIdle()
        var random = ConstantRandom(value: 0)
        _ = machine.handle(.syncRequested, now: t0, random: &random)
        let stopped = machine.handle(.stopped, now: t0, random: &random)
        #expect(
            Set(stopped.filter { if case .cancel = $0 { true } else { false } })
                == Set(SyncMachine.Timer.allCases.map { .cancel($0) }))
        for event in [SyncMachine.Event.roundFinished(.caughtUp), .localChange, .syncRequested, .timerFired(.periodic)]
        {
            #expect(machine.handle(event, now: t0 + 1, random: &random).isEmpty, "\(event)")
        }
        #expect(rounds(machine.handle(.started, now: t0 + 2, random: &random)) == [.normal])
    }

    @Test func statusIsReportedOnlyWhenItChanges() {
        var machine = runningIdle()
        var random = ConstantRandom(value: 0)
        let quiet = machine.handle(.localChange, now: t0 + 1, random: &random)
        #expect(!quiet.contains { if case .report = $0 { true } else { false } })
        let busy = machine.handle(.timerFired(.debounce), now: t0 + 3, random: &random)
        #expect(
            busy.last
                == .report(
                    SyncMachine.Status(connection: .syncing, lastSuccess: t0, roundsStarted: 2, roundsFinished: 1)))
    }
}

@Suite struct SyncBackoffTests {
    @Test func ceilingsDoubleFromOneSecondUpToSixty() {
        let backoff = SyncBackoff()
        #expect((1...9).map { backoff.ceiling(failures: $0) } == [1, 2, 4, 8, 16, 32, 60, 60, 60])
        #expect(backoff.ceiling(failures: 10_000) == 60, "no overflow after many failures")
        #expect(backoff.ceiling(failures: 0) == 1)
    }

    @Test func delaysAreSpreadOverTheWholeRange() {
        let backoff = SyncBackoff()
        var random = SystemRandomNumberGenerator()
        let delays = (0..<2_000).map { _ in backoff.delay(failures: 5, using: &random) }
        #expect(delays.allSatisfy { (0..<16).contains($0) })
        #expect(delays.contains { $0 < 4 } && delays.contains { $0 > 12 }, "full jitter, not a fixed wait")
    }
}
