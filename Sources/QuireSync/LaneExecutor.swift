import Foundation

/// A task executor over a `BackgroundThread`: sync work that runs below the app's UI, so that
/// when a key and the sync both want a core, the scheduler gives it to the key.
///
/// `SyncEngine` runs each attachment step with `transfers` as the task's preference, so
/// everything the step does outside an actor (reading the file, sealing, hashing, the store's
/// records of progress, the code around each request) runs there; the chunk requests' network
/// I/O runs on the HTTP client's event loop (below the UI too in the app:
/// `HTTPSyncTransport.sendRequestsBelowTheUI`). In the app (`SyncEngine.runsBelowTheUI`) its item
/// rounds run on `rounds` (a pull applying its pages, the pushes) and the page a pull asks for
/// while it applies the last one is decoded on `readAhead`. Three lanes, not one: an upload's
/// chunk never holds a title edit's round, and the next page still decodes while the last one
/// is applied.
public final class LaneExecutor: TaskExecutor, Sendable {
    /// Attached files' transfers (`SyncEngine`'s attachment steps), below the other lanes.
    public static let transfers = LaneExecutor(name: "quire.transfer", niceness: BackgroundThread.transferNiceness)
    /// The app's item rounds.
    public static let rounds = LaneExecutor(name: "quire.sync")
    /// The page an app's pull asks for ahead.
    public static let readAhead = LaneExecutor(name: "quire.fetch")

    private let thread: BackgroundThread

    init(name: String, niceness: Int32 = BackgroundThread.niceness) {
        thread = BackgroundThread(name: name, niceness: niceness)
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        thread.async { [self] in job.runSynchronously(on: asUnownedTaskExecutor()) }
    }
}
