import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A serial queue on a thread of its own, at a lower OS priority (nice 10) than the app's UI,
/// for the work that must never make a key wait: attached files' transfers, the list's reads
/// after a sync wrote, full counts of a search.
///
/// Dispatch's qualities of service do not set thread priorities on Linux: a refresh run on a
/// dispatch queue competed with the UI as an equal. A scheduler trace of typing during an
/// upload showed it: the UI's thread woke the list's refresh and waited 3 to 5 ms while the
/// refresh took the core, and keys pressed then waited too. Linux gives each thread its own
/// nice value, so each lane gets a thread whose priority it sets; a key's wake-up then takes
/// the core from it. At nice 10 it still has a core whenever nothing else wants one: on an idle
/// machine the work runs as fast as before. The lane that moves files' bytes runs lower still
/// (`transferNiceness`), so that an item's round, or a read a key waits for, is not an equal
/// of a 100 MB upload for a core either.
///
/// Queue-confined: `work` is the only state shared with the thread, under its lock.
public final class BackgroundThread: Sendable {
    /// The nice value background lanes ask for (Linux; elsewhere they run at the process's).
    public static let niceness: Int32 = 10
    /// The nice value of the lane that moves attached files' bytes: the least urgent work in
    /// the app, below the lanes a key or an item's round may wait for.
    public static let transferNiceness: Int32 = 19

    /// The thread's name, as `top -H` and `/proc/self/task/*/comm` show it.
    public let name: String
    private let work = Mutex<[@Sendable () -> Void]>([])
    private let wake = DispatchSemaphore(value: 0)

    /// Starts the thread at `niceness`; it lives as long as the process (every lane is
    /// process-wide).
    public init(name: String, niceness: Int32 = BackgroundThread.niceness) {
        self.name = name
        let thread = Thread { [self] in
            Self.prepareThread(name: name, niceness: niceness)
            run()
        }
        thread.start()
    }

    /// Runs `body` on the thread after everything queued before it.
    public func async(_ body: @escaping @Sendable () -> Void) {
        work.withLock { $0.append(body) }
        wake.signal()
    }

    /// Runs the queued work in the order it came, one at a time, for ever.
    private func run() -> Never {
        while true {
            wake.wait()
            guard let body = work.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { continue }
            body()
        }
    }

    /// Returns what `make` returns, run on a new thread at the lanes' priority that ends with
    /// it: every thread `make` starts inherits that priority (Linux gives a new thread its
    /// creator's nice value and policy). For pools of threads made once for the process, so
    /// that their priority is chosen here rather than by whichever thread used them first.
    public static func startingThreadsBelowTheUI<Made: Sendable>(_ make: @escaping @Sendable () -> Made) -> Made {
        let made = Mutex<Made?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            prepareThread(name: "quire.starter", niceness: niceness)
            made.withLock { $0 = make() }
            done.signal()
        }
        thread.start()
        done.wait()
        return made.withLock { $0! }
    }

    /// Sets the calling thread's nice value and name; a failure leaves them as they were. On
    /// Linux the nice value belongs to each thread, and process id 0 names the calling thread.
    private static func prepareThread(name: String, niceness: Int32) {
        lowerCallingThread(to: niceness)
        #if os(Linux)
            // Named from the thread itself (Foundation gives the OS no name set before `start`,
            // and glibc's call for it is not imported). The kernel keeps 15 bytes of it.
            try? String(name.prefix(15)).write(toFile: "/proc/thread-self/comm", atomically: false, encoding: .utf8)
        #endif
    }

    /// Makes the calling thread a batch thread at `niceness`, as every lane's is (Linux; a
    /// failure leaves it as it was): a key's wake-up takes the core from it.
    public static func lowerCallingThread(to niceness: Int32) {
        #if os(Linux)
            // SCHED_BATCH first (the nice value set after it is kept); Glibc's module leaves
            // the constant out (it is under _GNU_SOURCE), and Linux numbers it 3.
            let batch: Int32 = 3
            var parameters = sched_param()
            _ = sched_setscheduler(0, batch, &parameters)
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
        #endif
    }

    /// The calling thread's nice value (Linux), for tests that check where work ran.
    public static func currentNiceness() -> Int32 {
        #if os(Linux)
            errno = 0
            return getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        #else
            return 0
        #endif
    }
}
