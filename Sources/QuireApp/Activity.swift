import Foundation

/// Counts work in progress on the UI queue, so tests (and benchmarks) can wait until the app
/// is idle instead of sleeping and hoping.
///
/// Every message counts from the moment it is sent until its frame is drawn; timers that find
/// nothing to do never count. Thread-safe.
public final class Activity: @unchecked Sendable {
    private let condition = NSCondition()
    private var running = 0

    public init() {}

    func begin() {
        condition.lock()
        running += 1
        condition.unlock()
    }

    func end() {
        condition.lock()
        running -= 1
        if running == 0 { condition.broadcast() }
        condition.unlock()
    }

    public var isIdle: Bool {
        condition.lock()
        defer { condition.unlock() }
        return running == 0
    }

    /// Waits until no work is in progress; false when `timeout` passed first.
    @discardableResult
    public func waitUntilIdle(timeout: TimeInterval = 10) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while running > 0 {
            if !condition.wait(until: deadline) { return running == 0 }
        }
        return true
    }
}

/// A counter that tells the newest of several queued requests from the ones it replaced.
final class Generation: @unchecked Sendable {
    private let lock = NSLock()
    private var current = 0

    /// Starts a new generation and returns it.
    func advance() -> Int {
        lock.withLock {
            current += 1
            return current
        }
    }

    func isCurrent(_ generation: Int) -> Bool {
        lock.withLock { current == generation }
    }
}
