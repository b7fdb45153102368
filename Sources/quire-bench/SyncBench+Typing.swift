import Foundation
import QuireApp
import QuireProtocol
import QuireStore
import QuireSync
import QuireUI
import TerminalUI

/// Keystroke-to-frame latency in the app runtime over a store, with or without a large sync
/// writing into that same store: the worker must never make typing wait.
struct SyncBenchTyping {
    let store: AppDatabase
    /// The app's sync control, when a worker runs the sync as it does in the app: its news of
    /// every round reaches the runtime as the app's does.
    var sync: (any SyncControl)? = nil

    /// The latencies of a run of keys, and those of the keys pressed while the work still ran.
    typealias Run = (stats: TUIBenchStats, whileWorking: [Double])

    /// Moves the selection and pages (`j`, `PgDn`, `PgUp` in turn) until `presses` keys were
    /// timed and, when `busy` is given, for as long as it keeps running too. Returns the frame
    /// latencies in milliseconds and those of the keys pressed while `busy` still ran.
    func measure(presses: Int, while busy: (@Sendable () async throws -> Void)? = nil) async throws -> Run {
        var environment = AppEnvironment(items: StoreItemSource(store: store))
        if let sync { environment.sync = sync }
        let runtime = AppRuntime(
            environment: environment,
            backend: TestBackend(size: Size(width: 120, height: 40)), label: "quire.bench.typing")
        let clock = TUIBenchLatency.FrameClock()
        runtime.onFrame = { clock.record($0) }
        runtime.start()
        runtime.waitUntilIdle()
        defer {
            runtime.stop()
            _ = runtime.waitUntilStopped()
        }
        let finished = Flag()
        let work = busy.map { body in
            Task.detached {
                defer { finished.set() }
                try await body()
            }
        }
        if work == nil { finished.set() }
        let keys: [Key] = [.character("j"), .pageDown, .pageUp]
        // Keys are pressed on a thread of their own, as a person's terminal sends them,
        // while the sync runs on the concurrency pool.
        let (latencies, whileWorking) = await withCheckedContinuation {
            (done: CheckedContinuation<([Double], [Double]), Never>) in
            Thread.detachNewThread {
                var latencies: [Double] = []
                var whileWorking: [Double] = []
                while latencies.count < presses || !finished.isSet {
                    let stillWorking = !finished.isSet
                    let before = clock.lastSelection
                    let start = DispatchTime.now().uptimeNanoseconds
                    runtime.send(.key(keys[latencies.count % keys.count]))
                    runtime.waitUntilIdle()
                    let end = DispatchTime.now().uptimeNanoseconds
                    // Each key moves the selection: its frame is the first to show where to.
                    let after = clock.lastSelection
                    let moved = after.flatMap { $0 != before ? clock.firstFrame(after: start, selecting: $0) : nil }
                    let frame = moved ?? clock.firstFrame(after: start) ?? end
                    latencies.append(Double(frame - start) / 1_000_000)
                    if stillWorking { whileWorking.append(latencies[latencies.count - 1]) }
                    // A person types a few keys a second, not thousands: leave the sync room.
                    usleep(20_000)
                }
                done.resume(returning: (latencies, whileWorking))
            }
        }
        try await work?.value
        return (TUIBenchStats(latencies), whileWorking)
    }

    /// Spins `threads` threads for `seconds`, as a stand-in for other work on the machine.
    static func keepBusy(threads: Int, seconds: Double) async {
        await onThreads(threads, for: seconds) { _, deadline in
            var spins: UInt64 = 0
            while DispatchTime.now().uptimeNanoseconds < deadline { spins &+= 1 }
            if spins == .max { print("") }  // keeps the loop from being optimized away
        }
    }

    /// Keeps every core hashing memory below the UI for `seconds`, with no code of the app: one
    /// thread at the transfer lane's priority (`SCHED_BATCH`, nice 19) standing for the upload's
    /// reading and hashing, the others under `SCHED_IDLE` as the bench runs the server. What
    /// work at those priorities costs a key on this machine, whoever does it: the floor for an
    /// upload that runs while a person types.
    static func keepHashingBelowTheUI(threads: Int, seconds: Double) async {
        await onThreads(threads, for: seconds) { index, deadline in
            if index == 0 {
                BackgroundThread.lowerCallingThread(to: BackgroundThread.transferNiceness)
            } else {
                idleCallingThread()
            }
            let chunk = [UInt8](repeating: UInt8(truncatingIfNeeded: index), count: 1 << 20)
            var copy = chunk
            var hashed = 0
            while DispatchTime.now().uptimeNanoseconds < deadline {
                // A copy, as a chunk read from the page cache is, then its hash.
                copy.withUnsafeMutableBytes { target in chunk.withUnsafeBytes { target.copyMemory(from: $0) } }
                hashed &+= ContentHash.sha256Hex(bytes: copy).utf8.count
            }
            if hashed == -1 { print("") }  // keeps the loop from being optimized away
        }
    }

    /// Puts the calling thread under `SCHED_IDLE`, as the bench runs the server (Linux).
    static func idleCallingThread() {
        #if os(Linux)
            // Linux numbers SCHED_IDLE 5 (Glibc's module leaves it out).
            var parameters = sched_param()
            _ = sched_setscheduler(0, 5, &parameters)
        #endif
    }

    /// Runs `body` on `count` new threads (with each one's index and the deadline `seconds`
    /// from now, in uptime nanoseconds) and returns when every one has.
    static func onThreads(
        _ count: Int, for seconds: Double, _ body: @escaping @Sendable (Int, UInt64) -> Void
    ) async {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let group = DispatchGroup()
            for index in 0..<count {
                group.enter()
                Thread.detachNewThread {
                    body(index, deadline)
                    group.leave()
                }
            }
            group.notify(queue: .global()) { done.resume() }
        }
    }

    /// A flag set once, read from any thread.
    final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        var isSet: Bool { lock.withLock { value } }
        func set() { lock.withLock { value = true } }
    }
}
