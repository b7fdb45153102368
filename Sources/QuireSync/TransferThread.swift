import Foundation

/// The lane attached files' transfers run on: a `BackgroundThread` of the process, so that when
/// the app's UI and an upload both want a core, the scheduler gives it to the UI.
///
/// An upload reads, hashes and seals a chunk, then sends it, for as long as the file lasts;
/// on a small machine that keeps the cores busy, and a key pressed meanwhile waits for one.
///
/// A task executor: `SyncEngine` runs each attachment step with it as the task's preference,
/// so everything the step does outside an actor (reading the file, sealing, hashing, the
/// store's records of progress, the code around each request) runs on this thread. The chunk
/// requests' network I/O runs on the HTTP client's event loop. Item changes never come here:
/// a title edit is sent by the round's own task, ahead of the next chunk, as before.
public final class TransferThread: TaskExecutor, Sendable {
    /// The process's transfer lane, started at first use and kept for the life of the process.
    public static let shared = TransferThread()

    /// The nice value asked for the thread (Linux; elsewhere it runs at the process's).
    public let niceness = BackgroundThread.niceness
    private let thread = BackgroundThread(name: "quire.transfer")

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        thread.async { [self] in job.runSynchronously(on: asUnownedTaskExecutor()) }
    }

    /// The calling thread's nice value (Linux), for tests that check where work ran.
    public static func currentNiceness() -> Int32 {
        BackgroundThread.currentNiceness()
    }
}
