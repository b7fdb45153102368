import Dispatch
import Foundation

/// A timer set by a `SyncScheduler`; cancelling it means its handler will not run.
public protocol SyncScheduledTimer: Sendable {
    func cancel()
}

/// The clock and timers of the sync worker, so that tests can drive time by hand.
public protocol SyncScheduler: Sendable {
    func now() -> Date
    /// Calls `handler` on `queue` at `deadline` (at once when it has passed), unless cancelled.
    func schedule(at deadline: Date, on queue: DispatchQueue, _ handler: @escaping @Sendable () -> Void)
        -> any SyncScheduledTimer
}

/// The app's clock and `DispatchSourceTimer`s.
public struct LiveSyncScheduler: SyncScheduler {
    private let clock: @Sendable () -> Date

    /// - Parameter now: the clock the rest of the app reads (the store's).
    public init(now: @escaping @Sendable () -> Date) {
        clock = now
    }

    public func now() -> Date { clock() }

    public func schedule(at deadline: Date, on queue: DispatchQueue, _ handler: @escaping @Sendable () -> Void)
        -> any SyncScheduledTimer
    {
        let source = DispatchSource.makeTimerSource(queue: queue)
        let delay = max(0, deadline.timeIntervalSince(clock()))
        source.schedule(deadline: .now() + delay, leeway: .milliseconds(50))
        source.setEventHandler(handler: handler)
        source.resume()
        return DispatchTimer(source: source)
    }

    private struct DispatchTimer: SyncScheduledTimer, @unchecked Sendable {
        /// Dispatch sources are thread-safe to cancel from anywhere.
        let source: any DispatchSourceTimer
        func cancel() { source.cancel() }
    }
}

/// A clock that moves only when told to, with timers that fire as it passes them.
///
/// For tests of the worker: `advance(by:)` runs every due handler synchronously on its queue,
/// in deadline order, with the clock set to each deadline in turn. Thread-safe; handlers run
/// outside the internal lock, so they may schedule and cancel timers themselves.
public final class ManualSyncScheduler: SyncScheduler, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date
    private var timers: [Entry] = []
    private var nextID = 0

    private struct Entry {
        var id: Int
        var deadline: Date
        var queue: DispatchQueue
        var handler: @Sendable () -> Void
    }

    public init(now: Date = Date(timeIntervalSince1970: 1_790_000_000)) {
        current = now
    }

    public func now() -> Date {
        lock.withLock { current }
    }

    public func schedule(at deadline: Date, on queue: DispatchQueue, _ handler: @escaping @Sendable () -> Void)
        -> any SyncScheduledTimer
    {
        lock.withLock {
            nextID += 1
            timers.append(Entry(id: nextID, deadline: deadline, queue: queue, handler: handler))
            return Token(scheduler: self, id: nextID)
        }
    }

    /// The deadlines of the timers still set, soonest first.
    public var deadlines: [Date] {
        lock.withLock { timers.map(\.deadline).sorted() }
    }

    /// Moves the clock forward, firing every timer due on the way (and those they set, if due).
    public func advance(by interval: TimeInterval) {
        let target = now() + interval
        while true {
            let due: Entry? = lock.withLock {
                guard
                    let index = timers.indices.filter({ timers[$0].deadline <= target })
                        .min(by: { (timers[$0].deadline, timers[$0].id) < (timers[$1].deadline, timers[$1].id) })
                else { return nil }
                let entry = timers.remove(at: index)
                current = max(current, entry.deadline)
                return entry
            }
            guard let due else { break }
            due.queue.sync(execute: due.handler)
        }
        lock.withLock { current = max(current, target) }
    }

    fileprivate func cancel(id: Int) {
        lock.withLock { timers.removeAll { $0.id == id } }
    }

    private struct Token: SyncScheduledTimer {
        let scheduler: ManualSyncScheduler
        let id: Int
        func cancel() { scheduler.cancel(id: id) }
    }
}
