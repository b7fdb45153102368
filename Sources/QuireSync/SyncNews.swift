import Foundation
import QuireCore
import Synchronization

/// Gathers what the sync worker and the hint follower say into one `SyncWorkerState`, and
/// hands every change to the one listener (the app's UI queue) in the order it happened.
///
/// It also carries each one's news to the other, so that neither waits out a timer for what
/// the other already knows: a stream that opens proves the server answers (a waiting retry
/// runs now); a stream that ends after being open makes an idle worker check the server at
/// once (a killed server or a revoked token is seen in a second, not at the next pull); and a
/// round that reached the server reconnects a stream that is waiting out its backoff.
public final class SyncNews: Sendable {
    private struct Heard {
        var status: SyncMachine.Status?
        var hints: HintState?
        /// Items the first pull under way has brought; nil when none runs.
        var firstPull: Int?
        var listener: (@Sendable (SyncWorkerState) -> Void)?
        var worker: SyncWorker?
        var follower: HintFollower?
        /// Whether the device was locked when the worker last reported.
        var locked = false
    }

    private let heard = Mutex(Heard())
    /// Whether the device is locked out of an encrypted account (`SyncSettings.isLocked`): asked
    /// at each report of the worker, as a round's end, an unlock or new keys change it.
    private let isLocked: @Sendable () -> Bool

    public init(isLocked: @escaping @Sendable () -> Bool) {
        self.isLocked = isLocked
    }

    /// The worker and the follower whose news this carries between them.
    public func link(worker: SyncWorker, hints: HintFollower?) {
        heard.withLock {
            $0.worker = worker
            $0.follower = hints
        }
    }

    /// Called with the current state at once (when there is one), then with every change.
    public func listen(_ listener: @escaping @Sendable (SyncWorkerState) -> Void) {
        heard.withLock {
            $0.listener = listener
            if let state = SyncNews.state(of: $0) { listener(state) }
        }
    }

    /// The state as last heard; nil before the worker said anything.
    public var current: SyncWorkerState? { heard.withLock { SyncNews.state(of: $0) } }

    /// The worker's `onStatus`.
    public func workerChanged(_ status: SyncMachine.Status) {
        let locked = isLocked()
        heard.withLock {
            let before = $0.status
            $0.status = status
            $0.locked = locked
            if status.lastSuccess != before?.lastSuccess, status.lastSuccess != nil {
                $0.follower?.serverAnswered()
            }
            tell($0)
        }
    }

    /// The engine's `onFirstPull`: how many items a first pull has brought, nil once it is over.
    public func firstPullChanged(_ received: Int?) {
        heard.withLock {
            $0.firstPull = received
            tell($0)
        }
    }

    /// The hint follower's `onState`.
    public func hintsChanged(_ hints: HintState) {
        heard.withLock {
            let wasLive = $0.hints?.isLive == true
            $0.hints = hints
            if hints.isLive {
                $0.worker?.serverReached()
            } else if wasLive {
                $0.worker?.hintsLost()
            }
            tell($0)
        }
    }

    private func tell(_ heard: Heard) {
        guard let listener = heard.listener, let state = SyncNews.state(of: heard) else { return }
        listener(state)
    }

    private static func state(of heard: Heard) -> SyncWorkerState? {
        guard let status = heard.status else { return nil }
        var reason: String?
        var detail: String?
        if case .polling(let why, let said)? = heard.hints {
            reason = why
            detail = said
        }
        var state = SyncWorkerState(
            connection: status.connection, lastSuccess: status.lastSuccess, nextRetry: status.nextRetry,
            live: heard.follower == nil ? nil : heard.hints?.isLive ?? false, problem: status.problem,
            problemDetail: status.problemDetail, pollingReason: reason, pollingDetail: detail,
            roundsStarted: status.roundsStarted, roundsFinished: status.roundsFinished,
            firstPullReceived: heard.firstPull)
        state.unlockNeeded = heard.locked
        return state
    }
}
