import Foundation

#if canImport(Testing)
    import Testing
#endif

// Waiting for work that finishes on another thread or in another process: the condition is
// checked every few milliseconds until it holds or the deadline passes, never a fixed sleep
// that is too short on a busy machine and too long on an idle one.

/// How long to wait for work on Swift's concurrency pool or a loopback connection that must
/// happen. The whole suite runs at once on as few as two cores, and the pool's threads can all be
/// busy for seconds (a hint follower's first request once waited over 5 s); a wait ends as soon
/// as its condition holds, so a long deadline costs nothing when things work.
public let asyncWorkDeadline: TimeInterval = 30

/// Whether `condition` held within `timeout` seconds (it is checked once more at the deadline).
/// Blocks the calling thread between checks: for synchronous tests.
@discardableResult
public func waitUntil(
    timeout: TimeInterval = 5, every interval: TimeInterval = 0.005, _ condition: () throws -> Bool
) rethrows -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while Date() < deadline {
        if try condition() { return true }
        usleep(useconds_t(interval * 1_000_000))
    }
    return try condition()
}

/// As `waitUntil`, for async tests: it suspends between checks instead of blocking a thread.
@discardableResult
public func suspendUntil(
    timeout: TimeInterval = 5, every interval: TimeInterval = 0.002, _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while Date() < deadline {
        if try await condition() { return true }
        try? await Task.sleep(nanoseconds: UInt64(interval * 1_000_000_000))
    }
    return try await condition()
}

// Built without tests (`swift build`, release), this target is compiled too, where the
// Testing module is not on the search path: the parts that record issues need it.
#if canImport(Testing)
    /// Expects `condition` to hold within `timeout` seconds; records a test issue when it does not.
    public func eventually(
        timeout: TimeInterval = 5, sourceLocation: SourceLocation = #_sourceLocation, _ condition: () -> Bool
    ) async {
        if await !suspendUntil(timeout: timeout, condition) {
            Issue.record("condition not met within \(timeout)s", sourceLocation: sourceLocation)
        }
    }
#endif
