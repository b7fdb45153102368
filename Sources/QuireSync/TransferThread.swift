import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The thread attached files' transfers run on: one thread of the process, at a lower OS
/// priority (nice 10) than the rest of it, so that when the app's UI and an upload both want a
/// core, the scheduler gives it to the UI.
///
/// An upload reads, hashes and seals a chunk, then sends it, for as long as the file lasts;
/// on a small machine that keeps the cores busy, and a key pressed meanwhile waits for one.
/// Dispatch's qualities of service do not set thread priorities on Linux, so the transfer
/// gets a thread of its own whose priority it sets (Linux gives each thread its own nice
/// value). At nice 10 it still has a core whenever nothing else wants it: an upload on an
/// idle machine is as fast as before.
///
/// A task executor: `SyncEngine` runs each attachment step with it as the task's preference,
/// so everything the step does outside an actor (reading the file, sealing, hashing, the
/// store's records of progress, the code around each request) runs on this thread. The chunk
/// requests' network I/O runs on their own client's event loop, lowered the same way
/// (`HTTPSyncTransport.transferClient`). Item changes never come here: a title edit is sent by
/// the round's own task, ahead of the next chunk, as before.
///
/// Queue-confined: `jobs` is the only state shared with the thread, under its lock.
public final class TransferThread: TaskExecutor, Sendable {
    /// The process's transfer thread, started at first use and kept for the life of the process.
    public static let shared = TransferThread(niceness: 10)

    /// The nice value asked for the thread (Linux; elsewhere it runs at the process's).
    public let niceness: Int32
    private let jobs = Mutex<[UnownedJob]>([])
    private let wake = DispatchSemaphore(value: 0)

    init(niceness: Int32) {
        self.niceness = niceness
        let thread = Thread { [self] in
            Self.prepareThread(niceness: niceness)
            run()
        }
        thread.start()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        wake.signal()
    }

    /// Runs the jobs in the order they came, one at a time, for ever.
    private func run() -> Never {
        while true {
            wake.wait()
            guard let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { continue }
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }

    /// Sets the calling thread's nice value and name; a failure leaves them as they were. On
    /// Linux the nice value belongs to each thread, and process id 0 names the calling thread.
    private static func prepareThread(niceness: Int32) {
        #if os(Linux)
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
            // Named from the thread itself, for `top -H` and `/proc/self/task/*/comm` (Foundation
            // gives the OS no name set before `start`, and glibc's call for it is not imported).
            try? "quire.transfer".write(toFile: "/proc/thread-self/comm", atomically: false, encoding: .utf8)
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
